package themes

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func write(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, body string
		wantErr    string
		check      func(t *testing.T, p Palette)
	}{
		{"solar.toml", "base = \"light\"\naccent = \"#ff8800\"\n", "", func(t *testing.T, p Palette) {
			if p.Name != "solar" || p.Accent != "#ff8800" || p.Foreground != Light.Foreground {
				t.Fatalf("got %+v; want name solar, accent #ff8800, the rest from light", p)
			}
		}},
		{"named.toml", "name = \"mine\"\ncoder = \"33\"\n", "", func(t *testing.T, p Palette) {
			if p.Name != "mine" || p.Coder != "33" || p.Tool != Dark.Tool {
				t.Fatalf("got %+v", p)
			}
		}},
		{"badcolour.toml", "accent = \"orange\"\n", "key accent: \"orange\" is not a colour", nil},
		{"unknown.toml", "acent = \"#fff\"\n", "unknown key \"acent\"", nil},
		{"badbase.toml", "base = \"solarized\"\n", "base \"solarized\" is not a built-in theme", nil},
		{"syntax.toml", "accent = \n", "line 1", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := LoadFile(write(t, dir, tt.name, tt.body))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), tt.name) {
					t.Fatalf("err = %v, want one naming %s and saying %q", err, tt.name, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, p)
		})
	}
}

func TestLoadDirSkipsBadFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "good.toml", "accent = \"#123456\"\n")
	write(t, dir, "bad.toml", "accent = \"nope\"\n")
	write(t, dir, "notes.txt", "not a theme")
	got, errs := LoadDir(dir)
	if len(got) != 1 || got["good"].Accent != "#123456" {
		t.Fatalf("themes = %+v", got)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "bad.toml") {
		t.Fatalf("errs = %v", errs)
	}
	if got, errs := LoadDir(filepath.Join(dir, "missing")); len(got) != 0 || len(errs) != 0 {
		t.Fatalf("a missing dir should be no themes and no error: %v %v", got, errs)
	}
}

func TestResolve(t *testing.T) {
	user := map[string]Palette{"mine": {Name: "mine", Accent: "#010203"}, "dark": {Name: "dark", Accent: "#0a0b0c"}}
	tests := []struct {
		name    string
		dark    bool
		want    string // accent of the chosen palette
		wantErr bool
	}{
		{"", true, Dark.Accent, false},
		{"auto", false, Light.Accent, false},
		{"light", true, Light.Accent, false},
		{"high-contrast", true, HighContrast.Accent, false},
		{"mine", true, "#010203", false},
		{"dark", false, "#0a0b0c", false}, // a user theme shadows the built-in
		{"nope", true, Dark.Accent, true},
	}
	for _, tt := range tests {
		p, err := Resolve(tt.name, tt.dark, user)
		if (err != nil) != tt.wantErr || p.Accent != tt.want {
			t.Errorf("Resolve(%q, dark=%v) = %s, %v; want %s, err %v", tt.name, tt.dark, p.Accent, err, tt.want, tt.wantErr)
		}
	}
	if _, err := Resolve("nope", true, user); err == nil || !strings.Contains(err.Error(), "mine") {
		t.Fatalf("the error should list the themes there are: %v", err)
	}
}

func TestNoColorEmitsNoColour(t *testing.T) {
	s := New(Dark, true)
	for name, out := range map[string]string{
		"text": s.Text.Render("x"), "sandbox off": s.SandboxOff.Render("x"), "denied": s.DeniedTag.Render("x"),
		"status": s.StatusBar.Render("x"), "match": s.Match.Render("x"),
	} {
		if strings.Contains(out, "38;") || strings.Contains(out, "48;") {
			t.Errorf("%s: NO_COLOR style emits colour: %q", name, out)
		}
	}
	if out := New(Dark, false).SandboxOff.Render("x"); !strings.Contains(out, "38;2;255;95;95") {
		t.Fatalf("with colour, sandbox off should be red: %q", out)
	}
	if !NoColorEnv(func(string) string { return "1" }) || NoColorEnv(func(string) string { return "" }) {
		t.Fatal("NO_COLOR: set and non-empty means no colour")
	}
}

func TestWatchReloadsOnEdit(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "mine.toml", "accent = \"#111111\"\n")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan map[string]Palette, 8)
	if err := Watch(ctx, dir, func(p map[string]Palette, _ []error) {
		if p != nil {
			got <- p
		}
	}); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "mine.toml", "accent = \"#222222\"\n")
	select {
	case p := <-got:
		if p["mine"].Accent != "#222222" {
			t.Fatalf("reloaded accent = %q", p["mine"].Accent)
		}
	case <-time.After(10 * time.Second): // a generous bound on a missed event, not a speed check
		t.Fatal("no reload after editing a theme file")
	}
}

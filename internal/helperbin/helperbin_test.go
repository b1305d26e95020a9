package helperbin

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/helperbin/stamp"
	"github.com/sentinelhq/sentinel/internal/userstate"
)

// fakeHelper writes a sentinel-helper beside a fake sentinel in a temp dir
// that prints stamp, with mode perm, and returns the fake sentinel's path.
func fakeHelper(t *testing.T, prints string, perm os.FileMode) string {
	t.Helper()
	dir := t.TempDir()
	exe := filepath.Join(dir, "sentinel")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if prints != "" {
		script := "#!/bin/sh\n[ \"$1\" = " + stamp.Arg + " ] && echo '" + prints + "'\n"
		if err := os.WriteFile(filepath.Join(dir, Name), []byte(script), perm); err != nil {
			t.Fatal(err)
		}
	}
	return exe
}

func TestChooseUsesTheHelperOnlyWhenItsStampMatches(t *testing.T) {
	want := stamp.Stamp()
	for _, tc := range []struct {
		name  string
		stamp string
		perm  os.FileMode
		fast  bool
		why   string
	}{
		{"same build", want, 0o755, true, ""},
		{"absent", "", 0, false, "no " + Name + " beside"},
		{"not executable", want, 0o644, false, "is not an executable file"},
		// A helper left over from another version may speak another hook
		// protocol: it must never answer this build's hooks.
		{"another build", "sentinel-helper-protocol/0 go1.1", 0o755, false, "is from another build"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			exe := fakeHelper(t, tc.stamp, tc.perm)
			c := choose(exe, want)
			if c.Fast != tc.fast {
				t.Fatalf("Fast = %v (%+v), want %v", c.Fast, c, tc.fast)
			}
			if tc.fast && c.Path != filepath.Join(filepath.Dir(exe), Name) {
				t.Fatalf("Path = %s, want the helper beside %s", c.Path, exe)
			}
			if !tc.fast && (c.Path != exe || !strings.Contains(c.Why, tc.why)) {
				t.Fatalf("fallback = %+v, want Path %s and a reason saying %q", c, exe, tc.why)
			}
		})
	}
}

// countingHelper writes a helper beside a fake sentinel that prints stamp
// and appends a line to a log each time it is asked; it returns the fake
// sentinel's path and the log's.
func countingHelper(t *testing.T, prints string) (exe, log string) {
	t.Helper()
	dir := t.TempDir()
	exe = filepath.Join(dir, "sentinel")
	log = filepath.Join(dir, "asked")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeCountingHelper(t, exe, log, prints)
	return exe, log
}

func writeCountingHelper(t *testing.T, exe, log, prints string) {
	t.Helper()
	script := "#!/bin/sh\necho asked >> '" + log + "'\n[ \"$1\" = " + stamp.Arg + " ] && echo '" + prints + "'\n"
	h := filepath.Join(filepath.Dir(exe), Name)
	tmp := h + ".new"
	if err := os.WriteFile(tmp, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, h); err != nil {
		t.Fatal(err)
	}
}

func asked(t *testing.T, log string) int {
	b, _ := os.ReadFile(log)
	return strings.Count(string(b), "asked")
}

func TestAMatchedHelperIsAskedOnceThenRemembered(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	want := stamp.Stamp()
	exe, log := countingHelper(t, want)
	for i := range 3 {
		if c := choose(exe, want); !c.Fast {
			t.Fatalf("choice %d: %+v, want the helper", i, c)
		}
	}
	if n := asked(t, log); n != 1 {
		t.Fatalf("the helper was asked %d times for three choices of the same file, want once", n)
	}
	// Another build of sentinel wants another stamp: asked again.
	if c := choose(exe, want+" other"); c.Fast {
		t.Fatalf("a helper remembered for one build was used by another: %+v", c)
	}
	if n := asked(t, log); n != 2 {
		t.Fatalf("asked %d times, want the other build to ask", n)
	}
}

func TestAReplacedHelperIsAskedAgain(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	want := stamp.Stamp()
	exe, log := countingHelper(t, want)
	if c := choose(exe, want); !c.Fast {
		t.Fatalf("%+v", c)
	}
	// A helper from another build put in its place (a new file, same name).
	writeCountingHelper(t, exe, log, "sentinel-helper-protocol/0 go1.1")
	if c := choose(exe, want); c.Fast || !strings.Contains(c.Why, "another build") {
		t.Fatalf("a replaced helper was trusted from memory: %+v", c)
	}
	// Rewritten in place with the same size and its modification time put
	// back: only the change time tells.
	h := filepath.Join(filepath.Dir(exe), Name)
	writeCountingHelper(t, exe, log, want)
	if c := choose(exe, want); !c.Fast {
		t.Fatalf("%+v", c)
	}
	st, err := os.Stat(h)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(h)
	other := strings.Replace(string(b), want, strings.Repeat("x", len(want)), 1)
	if err := os.WriteFile(h, []byte(other), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(h, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	if c := choose(exe, want); c.Fast {
		t.Fatalf("a helper rewritten in place was trusted from memory: %+v", c)
	}
}

func TestAForgedStampMemoryIsNotTrusted(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	want := stamp.Stamp()
	exe, log := countingHelper(t, "sentinel-helper-protocol/0 go1.1")
	h := filepath.Join(filepath.Dir(exe), Name)
	st, err := os.Stat(h)
	if err != nil {
		t.Fatal(err)
	}
	// The right key without the user's signature, then with a signature
	// of another purpose.
	p, _ := userstate.Path("helper-stamp.json")
	key := stampKey(h, st, want)
	otherSig, _ := userstate.Sign("sandbox go env cache v1", []byte(key))
	for _, sig := range []string{"", strings.Repeat("0", 64), otherSig} {
		b, _ := json.Marshal(stampCacheFile{Key: key, Sig: sig})
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if c := choose(exe, want); c.Fast {
			t.Fatalf("a helper of another build was used on a forged memory (sig %q): %+v", sig, c)
		}
	}
	if n := asked(t, log); n != 3 {
		t.Fatalf("asked %d times, want every choice to ask", n)
	}
}

// The price of choosing the helper, asked every time against remembered:
// go test -run '^$' -bench Choose ./internal/helperbin
func BenchmarkChoose(b *testing.B) {
	want := stamp.Stamp()
	dir := b.TempDir()
	exe := filepath.Join(dir, "sentinel")
	os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755)
	script := "#!/bin/sh\necho '" + want + "'\n"
	os.WriteFile(filepath.Join(dir, Name), []byte(script), 0o755)
	for _, remembered := range []bool{false, true} {
		b.Run(map[bool]string{false: "asked", true: "remembered"}[remembered], func(b *testing.B) {
			b.Setenv("XDG_STATE_HOME", b.TempDir())
			for b.Loop() {
				if !remembered {
					os.Remove(filepath.Join(os.Getenv("XDG_STATE_HOME"), "sentinel", "helper-stamp.json"))
				}
				if c := choose(exe, want); !c.Fast {
					b.Fatalf("%+v", c)
				}
			}
		})
	}
}

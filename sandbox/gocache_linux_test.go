package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The person's Go build cache inside a writable root (here a writable
// cache directory, two levels above it) stays read-only for the coder:
// no entry can be planted, not directly, not by moving a directory above
// it aside and making a new one, and not when it did not exist before the
// sandbox started. Every backend.
func TestPersonsGoCacheIsNeverWritable(t *testing.T) {
	for _, mode := range modes(t) {
		for _, existed := range []bool{true, false} {
			name := string(mode) + "/existing"
			if !existed {
				name = string(mode) + "/not-yet-made"
			}
			t.Run(name, func(t *testing.T) {
				caches := t.TempDir()
				gocache := filepath.Join(caches, "deep", "go-build")
				t.Setenv("GOCACHE", gocache)
				if existed {
					mustWrite(t, filepath.Join(gocache, "ab", "abcd-a"), "v1 the person's entry\n")
				}
				ws := t.TempDir()
				sbx, err := Prepare(Profile{Workspace: ws, Net: NetNone, Writable: []string{caches}}, Options{Mode: mode, Helper: helperBin})
				if err != nil {
					t.Fatal(err)
				}
				defer sbx.Close()
				script := `c=` + caches + `
mkdir -p $c/deep/go-build/ab 2>/dev/null; echo planted > $c/deep/go-build/ab/abcd-a && echo WROTE-ENTRY
echo planted > $c/deep/go-build/ef-d && echo WROTE-NEW
mv $c/deep $c/moved 2>/dev/null && mkdir -p $c/deep/go-build && echo planted > $c/deep/go-build/ef-d && echo SIDESTEPPED
mv $c/deep/go-build $c/gb 2>/dev/null && echo MOVED-CACHE
echo ok > $c/beside && echo WROTE-BESIDE
true`
				cmd, err := sbx.Command(context.Background(), ws, "sh", "-c", script)
				if err != nil {
					t.Fatal(err)
				}
				out, _ := cmd.CombinedOutput()
				got := string(out)
				for _, bad := range []string{"WROTE-ENTRY", "WROTE-NEW", "SIDESTEPPED", "MOVED-CACHE"} {
					if strings.Contains(got, bad) {
						t.Errorf("%s: the coder wrote the person's Go build cache:\n%s", bad, got)
					}
				}
				if !strings.Contains(got, "WROTE-BESIDE") {
					t.Errorf("the rest of the writable root was not writable:\n%s", got)
				}
				if _, err := os.Stat(filepath.Join(gocache, "ef-d")); err == nil {
					t.Errorf("a planted entry reached the person's Go build cache")
				}
				if b, err := os.ReadFile(filepath.Join(gocache, "ab", "abcd-a")); existed && string(b) != "v1 the person's entry\n" {
					t.Errorf("the person's entry changed: %q %v", b, err)
				} else if !existed && err == nil {
					t.Errorf("the coder made an entry in the person's Go build cache: %q", b)
				}
			})
		}
	}
}

// A writable root at or inside the person's Go build cache is refused.
func TestWritableRootInPersonsGoCacheIsRefused(t *testing.T) {
	gocache := t.TempDir()
	t.Setenv("GOCACHE", gocache)
	for _, w := range []string{gocache, filepath.Join(gocache, "ab")} {
		os.MkdirAll(w, 0o755)
		_, err := Profile{Workspace: t.TempDir(), Writable: []string{w}}.normalize()
		if err == nil || !strings.Contains(err.Error(), "Go build cache") {
			t.Errorf("writable %s: err = %v, want a refusal naming the Go build cache", w, err)
		}
	}
}

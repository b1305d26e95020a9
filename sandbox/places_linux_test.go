package sandbox

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A place shows Sentinel's file at a path the host does not have, inside a
// directory the sandbox shows read-only (/etc): the file reads, nothing
// under that path can be written or replaced, and the rest of /etc is still
// there (hidden files still hidden).
func TestPlacesShowAFileWhereTheHostHasNone(t *testing.T) {
	place := "/etc/sentinel-place-test/sub/policy.json"
	if _, err := os.Stat(filepath.Dir(filepath.Dir(place))); err == nil {
		t.Skipf("%s exists on this host", filepath.Dir(filepath.Dir(place)))
	}
	src := filepath.Join(t.TempDir(), "policy.json")
	mustWrite(t, src, `{"marker":"placed-ok"}`)
	dirSrc := t.TempDir()
	mustWrite(t, filepath.Join(dirSrc, "inner.txt"), "dir-placed-ok")
	script := `cat /etc/sentinel-place-test/sub/policy.json; echo
cat /etc/sentinel-place-dir/inner.txt; echo
echo pwn > /etc/sentinel-place-test/sub/policy.json && echo WROTE-PLACE
echo pwn > /etc/sentinel-place-test/sub/other.json && echo WROTE-BESIDE
mv /etc/sentinel-place-test /etc/moved 2>/dev/null && echo MOVED
echo pwn > /etc/sentinel-new && echo WROTE-ETC
echo pwn > /etc/sentinel-place-dir/inner.txt && echo WROTE-DIR
test -r /etc/passwd && echo PASSWD-OK
grep -c . /etc/shadow 2>/dev/null || echo SHADOW-HIDDEN
true`
	for _, mode := range modes(t) {
		t.Run(string(mode), func(t *testing.T) {
			got, err := runWithPlaces(t, mode, script, Place{Path: place, Source: src}, Place{Path: "/etc/sentinel-place-dir", Source: dirSrc})
			for _, want := range []string{`{"marker":"placed-ok"}`, "dir-placed-ok", "PASSWD-OK", "SHADOW-HIDDEN"} {
				if !strings.Contains(got, want) {
					t.Errorf("%q missing (err %v):\n%s", want, err, got)
				}
			}
			for _, bad := range []string{"WROTE-PLACE", "WROTE-BESIDE", "MOVED", "WROTE-ETC", "WROTE-DIR"} {
				if strings.Contains(got, bad) {
					t.Errorf("%s: a placed file or its directory was writable:\n%s", bad, got)
				}
			}
			if b, _ := os.ReadFile(src); string(b) != `{"marker":"placed-ok"}` {
				t.Errorf("the place's source changed: %q", b)
			}
		})
	}
}

// A place in a directory the host has, below another the sandbox shows
// (/etc/profile.d inside /etc), splices both: the host's entries are still
// there, the place reads, and neither directory can be written.
func TestPlacesShowAFileInAnExistingNestedDirectory(t *testing.T) {
	dir := "/etc/profile.d"
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Skipf("%s is missing on this host", dir)
	}
	host := "/etc/passwd" // an entry of the outer spliced directory
	if len(entries) > 0 {
		host = filepath.Join(dir, entries[0].Name())
	}
	place := filepath.Join(dir, "zz-sentinel-place-test.sh")
	src := filepath.Join(t.TempDir(), "p.sh")
	mustWrite(t, src, "echo nested-placed-ok")
	script := fmt.Sprintf(`cat %[1]s; echo
test -e %[2]s && echo HOST-ENTRY-OK
echo pwn > %[1]s && echo WROTE-PLACE
echo pwn > %[3]s/zz-other.sh && echo WROTE-BESIDE
rm -f %[2]s 2>/dev/null; test -e %[2]s || echo REMOVED-HOST
echo pwn > /etc/sentinel-new && echo WROTE-ETC
true`, place, host, dir)
	for _, mode := range modes(t) {
		t.Run(string(mode), func(t *testing.T) {
			got, err := runWithPlaces(t, mode, script, Place{Path: place, Source: src})
			for _, want := range []string{"nested-placed-ok", "HOST-ENTRY-OK"} {
				if !strings.Contains(got, want) {
					t.Errorf("%q missing (err %v):\n%s", want, err, got)
				}
			}
			for _, bad := range []string{"WROTE-PLACE", "WROTE-BESIDE", "REMOVED-HOST", "WROTE-ETC"} {
				if strings.Contains(got, bad) {
					t.Errorf("%s: the place or a spliced directory was writable:\n%s", bad, got)
				}
			}
		})
	}
}

// runWithPlaces runs script with sh in a sandbox of mode that shows the
// places, and gives its output.
func runWithPlaces(t *testing.T, mode Mode, script string, places ...Place) (string, error) {
	t.Helper()
	ws := t.TempDir()
	sbx, err := Prepare(Profile{Workspace: ws, Net: NetNone, Places: places}, Options{Mode: mode, Helper: helperBin})
	if err != nil {
		t.Fatal(err)
	}
	defer sbx.Close()
	cmd, err := sbx.Command(context.Background(), ws, "sh", "-c", script)
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// A place whose source the coder could write, or that sits in the
// workspace, is refused: what it shows would be the coder's.
func TestPlacesRefuseWritableSourcesAndPaths(t *testing.T) {
	ws := t.TempDir()
	src := filepath.Join(ws, "policy.json")
	mustWrite(t, src, "{}")
	outside := filepath.Join(t.TempDir(), "p.json")
	mustWrite(t, outside, "{}")
	for name, pl := range map[string]Place{
		"source in the workspace": {Path: "/etc/x/p.json", Source: src},
		"path in the workspace":   {Path: filepath.Join(ws, "p.json"), Source: outside},
		"path in /tmp":            {Path: "/tmp/p.json", Source: outside},
		"relative path":           {Path: "etc/p.json", Source: outside},
	} {
		if _, err := Prepare(Profile{Workspace: ws, Net: NetNone, Places: []Place{pl}}, Options{Mode: ModeNS, Helper: helperBin}); err == nil {
			t.Errorf("%s: Prepare accepted %+v", name, pl)
		}
	}
}

package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What Prepare denies for each kind of entry, found outside the sandbox.
func TestResolveDenied(t *testing.T) {
	dir, err := os.MkdirTemp("/var/tmp", "sentinel-denyresolve-")
	if err != nil {
		t.Skipf("no directory outside /tmp: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	mustWrite(t, filepath.Join(dir, "tool"), "#!/bin/sh\n")
	os.Symlink("tool", filepath.Join(dir, "alias"))
	// A multi-call binary that lists nc among its applets is denied whole
	// when nc is: its shell runs applets without exec.
	mustWrite(t, filepath.Join(dir, "busybox"), "#!/bin/sh\necho sh ls nc\n")
	os.Chmod(filepath.Join(dir, "busybox"), 0o755)
	ws := t.TempDir()
	resolveFor := func(entries ...string) ([]deniedFile, error) {
		s := &Sandbox{p: Profile{Workspace: ws, TempDir: t.TempDir(), Readable: []string{dir}, DeniedExecutables: entries}, mode: ModeNS, helper: helperBin}
		return s.resolveDenied()
	}
	paths := func(ds []deniedFile) string {
		var out []string
		for _, d := range ds {
			out = append(out, d.Entry+"="+d.Path)
		}
		return strings.Join(out, " ")
	}
	tool := filepath.Join(dir, "tool")
	for _, tt := range []struct {
		entries []string
		want    string
	}{
		{[]string{"tool"}, "tool=" + tool},
		{[]string{filepath.Join(dir, "alias")}, filepath.Join(dir, "alias") + "=" + tool},
		{[]string{"alias", "tool"}, "alias=" + tool}, // one file, denied once
		{[]string{"nc"}, "nc (applet of busybox)=" + filepath.Join(dir, "busybox")},
		{[]string{"no-such-program-xyz"}, ""},
	} {
		got, err := resolveFor(tt.entries...)
		if err != nil || !strings.Contains(paths(got), tt.want) || (tt.want == "" && len(got) != 0) {
			t.Errorf("%v: denied %q, %v; want %q", tt.entries, paths(got), err, tt.want)
		}
	}
	if _, err := resolveFor(helperBin); err == nil || !strings.Contains(err.Error(), "is Sentinel itself") {
		t.Errorf("denying the helper: %v", err)
	}
	inWS := filepath.Join(ws, "x")
	mustWrite(t, inWS, "x")
	if _, err := resolveFor(inWS); err == nil || !strings.Contains(err.Error(), "which the coder can write") {
		t.Errorf("denying a file in the workspace: %v", err)
	}
	for _, bad := range []string{"bin/nc", " "} {
		if err := checkDeniedEntries([]string{bad}); err == nil {
			t.Errorf("entry %q accepted", bad)
		}
	}
}

package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A relative program runs on both backends, found from the command's
// directory (not the caller's): ./s.sh in the workspace, and ../tools/t.sh
// beside it, whose directory is shown read-only for the command. bwrap
// once died with "Can't mkdir /usr: Read-only file system" because "." was
// bound before the system locations.
func TestRelativeProgramsRun(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	ws, tools := filepath.Join(base, "ws"), filepath.Join(base, "tools")
	mustWrite(t, filepath.Join(ws, "s.sh"), "#!/bin/sh\necho REL-OK\n")
	mustWrite(t, filepath.Join(tools, "t.sh"), "#!/bin/sh\necho TOOL-OK\n")
	for _, f := range []string{filepath.Join(ws, "s.sh"), filepath.Join(tools, "t.sh")} {
		if err := os.Chmod(f, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(t.TempDir()) // Sentinel's own directory is neither
	for _, mode := range modes(t) {
		t.Run(string(mode), func(t *testing.T) {
			sbx, err := Prepare(Profile{Workspace: ws, Net: NetNone}, Options{Mode: mode, Helper: helperBin})
			if err != nil {
				t.Fatal(err)
			}
			defer sbx.Close()
			for prog, want := range map[string]string{"./s.sh": "REL-OK", "../tools/t.sh": "TOOL-OK"} {
				c, err := sbx.Command(context.Background(), ws, prog)
				if err != nil {
					t.Fatal(err)
				}
				out, err := c.CombinedOutput()
				if err != nil || !strings.Contains(string(out), want) {
					t.Errorf("%s under %s: %v\n%s", prog, mode, err, out)
				}
			}
		})
	}
}

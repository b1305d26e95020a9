package sandbox

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// A protected path beside a hidden one (web/.envrc beside web/.env) holds
// its directory with a bind from the host, so that it cannot be renamed
// away; that bind must not show the hidden file again, nor undo Sentinel's
// read-only state below it.
func TestProtectedBesideHiddenKeepsItHidden(t *testing.T) {
	for _, mode := range modes(t) {
		t.Run(string(mode), func(t *testing.T) {
			ws := t.TempDir()
			web := filepath.Join(ws, "web")
			mustWrite(t, filepath.Join(web, ".env"), "SECRET-VALUE")
			mustWrite(t, filepath.Join(web, ".envrc"), "echo person")
			mustWrite(t, filepath.Join(web, "state", "keep"), "state")
			sbx, err := Prepare(Profile{Workspace: ws, Net: NetNone,
				Hidden:    []string{filepath.Join(web, ".env")},
				Protected: []string{filepath.Join(web, ".envrc")},
				ReadOnly:  []string{filepath.Join(web, "state")},
			}, Options{Mode: mode, Helper: helperBin})
			if err != nil {
				t.Fatal(err)
			}
			defer sbx.Close()
			cmd, err := sbx.Command(context.Background(), ws, "sh", "-c", `cat web/.env; echo
echo pwn > web/.envrc && echo WROTE-ENVRC
mv web web2 && echo MOVED-WEB
echo pwn > web/state/keep && echo WROTE-STATE
echo ok > web/new && echo WROTE-NEW
true`)
			if err != nil {
				t.Fatal(err)
			}
			out, err := cmd.CombinedOutput()
			got := string(out)
			if strings.Contains(got, "SECRET-VALUE") {
				t.Errorf("the hidden file was shown again by the protected path's directory bind:\n%s", got)
			}
			for _, bad := range []string{"WROTE-ENVRC", "MOVED-WEB", "WROTE-STATE"} {
				if strings.Contains(got, bad) {
					t.Errorf("%s (err %v):\n%s", bad, err, got)
				}
			}
			if !strings.Contains(got, "WROTE-NEW") {
				t.Errorf("web/ itself should stay writable (err %v):\n%s", err, got)
			}
		})
	}
}

package inplace

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// Issue 31: in place, the coder of one exec must not read the records of
// the project's earlier runs in .sentinel/runs (their requests, decisions
// and what they read), on either backend; its own run's record stays
// readable. Read from inside, as a coder would.
func TestExecHidesEarlierRunsRecords(t *testing.T) {
	for _, mode := range []string{"bwrap", "ns"} {
		t.Run(mode, func(t *testing.T) {
			dir := e2etest.ScratchRepo(t)
			env := append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir(), "XDG_CACHE_HOME="+t.TempDir(), "HOME="+t.TempDir(), "NO_COLOR=1")
			exec1 := func(script string) string {
				t.Helper()
				cmd := exec.Command(e2etest.Bin, "exec", "--plain", "--sandbox", mode, "--", "/bin/sh", "-c", script)
				cmd.Dir, cmd.Env = dir, env
				b, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("sentinel exec: %v\n%s", err, b)
				}
				return string(b)
			}
			exec1("true earlier-secret-" + "b71c")
			first := e2etest.RunIDs(t, dir)
			if len(first) != 1 {
				t.Fatalf("runs after the first exec: %v", first)
			}
			out := exec1(`for f in .sentinel/runs/*/* .sentinel/runs/*/.*; do echo "== $f"; cat "$f"; done > seen.txt 2>&1; ls -a .sentinel/runs/` + first[0] + ` > earlier.txt 2>&1; true own-record-9d2e`)
			seen, err := os.ReadFile(filepath.Join(dir, "seen.txt"))
			if err != nil {
				t.Fatalf("the second coder wrote nothing: %v\n%s", err, out)
			}
			if strings.Contains(string(seen), "earlier-secret-b71c") {
				t.Errorf("the coder read an earlier run's record:\n%s", seen)
			}
			if !strings.Contains(string(seen), "own-record-9d2e") {
				t.Errorf("the coder could not read its own run's record (or read nothing at all):\n%s\n%s", seen, out)
			}
			earlier, _ := os.ReadFile(filepath.Join(dir, "earlier.txt"))
			if names := strings.Fields(string(earlier)); len(names) > 2 {
				t.Errorf("the earlier run's record directory is listed inside: %q", names)
			}
		})
	}
}

package runner

import (
	"context"
	"os"
	"testing"

	"github.com/sentinelhq/sentinel/sandbox"
)

// A coder that fails having changed nothing (it could not start its work:
// a dead endpoint, a refused login) leaves no recovery entry; one that
// fails after changing something keeps its work.
func TestFailedCoderWithNoChangeLeavesNoRecovery(t *testing.T) {
	t.Parallel()

	for _, tc := range []struct {
		name   string
		script string
		kept   bool
	}{
		{"changed nothing", "echo 'API error: connection refused' >&2; exit 1", false},
		{"changed a file", "echo b > a.txt; exit 1", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := stopRepo(t)
			r, err := Start(context.Background(), Options{Project: p, Task: "edit a.txt",
				Coder:   CoderOptions{Name: "command", Command: []string{"sh", "-c", tc.script}},
				Sandbox: SandboxOptions{Mode: sandbox.ModeOff}})
			if err != nil {
				t.Fatal(err)
			}
			res := waitResult(t, r, tc.name)
			if res.Status != StatusFailed {
				t.Fatalf("the run ended %s: %v", res.Status, res.Err)
			}
			_, statErr := os.Stat(p.RecoveryDir(r.ID()))
			if kept := statErr == nil; kept != tc.kept || (res.Recovery != "") != tc.kept {
				t.Fatalf("recovery entry kept: %v (result %q), want %v", kept, res.Recovery, tc.kept)
			}
			if _, err := os.Stat(p.WorkDir(r.ID())); err == nil {
				t.Fatal("the workspace outlived the run")
			}
		})
	}
}

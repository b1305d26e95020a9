package codex

import (
	"os"

	"github.com/sentinelhq/sentinel/runner/coder"
)

// PrepareRun is Prepare from what every run tells its adapter.
func (a *Adapter) PrepareRun(s coder.Setup) (coder.Prepared, error) {
	n, err := a.Prepare(RunPaths{Workspace: s.Workspace, StateDir: s.StateDir,
		PersonDir: PersonDir(os.Getenv, s.Home), WhereAmI: s.WhereAmI,
		PolicyDir: s.PolicyDir, Placed: s.Contained})
	return coder.Prepared{Needs: n}, err
}

// Transport: the app-server speaks JSON-RPC on pipes; Codex in place has
// the pty as its terminal.
func (a *Adapter) Transport() coder.Transport {
	if a.Mode() == AppServer {
		return coder.AppServer
	}
	return coder.PTY
}

// FailureSource: Codex in place has no protocol to say why it failed: its
// last words are its error. (The app-server session says it itself.)
func (a *Adapter) FailureSource() coder.FailureSource { return coder.ExitStatus }

package geminicli

import "github.com/sentinelhq/sentinel/runner/coder"

// PrepareRun is Prepare from what every run tells its adapter.
func (a *Adapter) PrepareRun(s coder.Setup) (coder.Prepared, error) {
	n, err := a.Prepare(RunPaths{Home: s.Home, StateDir: s.StateDir, Project: s.Workspace, Socket: s.Socket,
		WhereAmI: s.WhereAmI, Contained: s.Contained, KeepHistory: s.InPlace})
	if err != nil {
		return coder.Prepared{}, err
	}
	return coder.Prepared{Needs: n, Notes: a.Notes()}, nil
}

// FailureSource: Gemini in place has no protocol to say why it failed: its
// last words are its error.
func (a *Adapter) FailureSource() coder.FailureSource { return coder.ExitStatus }

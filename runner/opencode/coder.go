package opencode

import "github.com/sentinelhq/sentinel/runner/coder"

// PrepareRun is Prepare from what every run tells its adapter.
func (a *Adapter) PrepareRun(s coder.Setup) (coder.Prepared, error) {
	p := RunPaths{Home: s.Home, StateDir: s.StateDir, Project: s.Workspace, WhereAmI: s.WhereAmI}
	if s.InPlace {
		p.SessionsOf = s.Project
	}
	n, err := a.Prepare(p)
	return coder.Prepared{Needs: n}, err
}

// FailureSource: Sentinel's plugin reports a session that failed (an API
// error) as a StopFailure; else an exit status is opencode's own failure.
func (a *Adapter) FailureSource() coder.FailureSource { return coder.StopHookOrExit }

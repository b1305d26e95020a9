package claude

import (
	"os"

	"github.com/sentinelhq/sentinel/runner/coder"
)

// PrepareRun is Prepare from what every run tells its adapter.
func (a *Adapter) PrepareRun(s coder.Setup) (coder.Prepared, error) {
	n, err := a.Prepare(RunPaths{Home: s.Home, Workspace: s.Workspace, Source: s.Source, Project: s.Project,
		StateDir: s.StateDir, PolicyDir: s.PolicyDir, Placed: s.Contained,
		SystemPrompt: s.WhereAmI, APIKey: os.Getenv("ANTHROPIC_API_KEY"), KeepHistory: s.InPlace})
	var notes []string
	if note := pluginsNote(personalDir(s.Home)); note != "" && err == nil {
		notes = append(notes, note)
	}
	return coder.Prepared{Needs: n, Notes: notes}, err
}

// Transport: headless Claude Code speaks stream-json on a pipe; the
// interactive one has the pty as its terminal.
func (a *Adapter) Transport() coder.Transport {
	if a.Mode() == Headless {
		return coder.StreamJSON
	}
	return coder.PTY
}

// FailureSource: interactive Claude Code says a turn ended on an API error
// through its StopFailure hook; the person then quits a coder that did
// nothing. (Headless, the failure is the last result's error.)
func (a *Adapter) FailureSource() coder.FailureSource { return coder.StopHook }

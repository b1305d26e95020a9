package runner

import (
	"slices"
	"testing"

	"github.com/sentinelhq/sentinel/internal/shellscope"
	"github.com/sentinelhq/sentinel/runner/opencode"
	"github.com/sentinelhq/sentinel/sandbox"
)

// stateAdapter is a scoped agent that names its own state dirs.
type stateAdapter struct {
	commandAdapter
	dirs []string
}

func (s *stateAdapter) AgentStateDirs() []string { return s.dirs }

// opencode names its session store as its state.
var _ agentStater = (*opencode.Adapter)(nil)

// In place, an agent that names its state dirs (opencode: its project's
// session store, outside the per-run dir, whose HOME its commands build
// in) gets those as the profile's AgentState, each a writable root of its
// own, and not the per-run dir. Seen failing with keepAgentState reading
// only the per-run dir: opencode's store was left writable to its
// commands (AgentState empty). Not parallel: it swaps scopeABI.
func TestInPlaceAgentStateIsTheDirsTheAgentNames(t *testing.T) {
	if len(shellscope.Places("/w")) == 0 {
		t.Skip("no system shell on this host")
	}
	defer func(old func() int) { scopeABI = old }(scopeABI)
	scopeABI = func() int { return 6 }
	const (
		agent = "/h/.cache/sentinel/exec/r-t.agent"
		home  = agent + "/home"
		store = "/h/.local/share/sentinel/opencode/0123"
	)
	r, _ := scopeRun(t, "opencode")
	r.adapter = &stateAdapter{commandAdapter: commandAdapter{argv: []string{"true"}, program: "opencode"}, dirs: []string{store}}
	r.ws = &Workspace{Dir: "/w/proj", agent: agent}
	prof := r.withShellScope(sandbox.Profile{Workspace: "/w/proj", Writable: []string{home, store, agent}})
	if !slices.Equal(prof.AgentState, []string{store}) {
		t.Errorf("AgentState = %q, want only the session store %s (not the run's HOME, where its commands build)", prof.AgentState, store)
	}
	r.adapter.(*stateAdapter).dirs = nil
	if prof := r.withShellScope(sandbox.Profile{Workspace: "/w/proj", Writable: []string{home, store}}); len(prof.AgentState) != 0 {
		t.Errorf("an agent naming no state dirs: AgentState = %q", prof.AgentState)
	}
}

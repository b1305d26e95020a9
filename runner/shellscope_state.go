package runner

import (
	"fmt"
	"slices"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/sandbox"
)

// agentStater is an adapter whose agent keeps its state somewhere other
// than the whole per-run agent dir: opencode's is its project's session
// store (OPENCODE_DB's directory), while the run's HOME it is given, which
// its commands build and cache in, is not state.
type agentStater interface{ AgentStateDirs() []string }

// agentStateDirs are the dirs keepAgentState keeps the agent's alone: the
// adapter's own (agentStater), else the per-run agent dir.
func (r *containment) agentStateDirs() []string {
	if s, ok := r.adapter.(agentStater); ok {
		return s.AgentStateDirs()
	}
	return []string{r.agentStateDir()}
}

// keepAgentState makes the run's agent state dirs (Claude Code's config
// dir, CODEX_HOME, GEMINI_CLI_HOME, opencode's session store: their
// transcripts and sessions) the agent's alone: the shells the agent starts
// enter a domain that cannot write them (sandbox.Profile.AgentState,
// internal/shellscope), so no command can plant a transcript or a session
// the person's own `claude --continue`, `codex resume`, `gemini --resume`
// or a later run's `opencode --continue` acts on. Only a state dir that is
// a writable root of its own; one that lies in another writable root (a
// [sandbox] writable that holds the cache dir, a home under /tmp) cannot
// be left out of that root's grant, and the run's journal says so. Called
// with the wrapper shown (withShellScope).
func (r *containment) keepAgentState(prof sandbox.Profile) sandbox.Profile {
	if r.ws == nil {
		return prof
	}
	for _, dir := range r.agentStateDirs() {
		prof = r.keepAgentStateDir(prof, dir)
	}
	return prof
}

// keepAgentStateDir is keepAgentState for one dir.
func (r *containment) keepAgentStateDir(prof sandbox.Profile, dir string) sandbox.Profile {
	if dir == "" {
		return prof
	}
	real := resolvedPath(dir)
	own := false
	for _, w := range prof.Writable {
		if resolvedPath(w) == real {
			own = true
		}
	}
	if !own {
		return prof // this agent keeps no state dir of the run's
	}
	for _, w := range append([]string{prof.Workspace, "/tmp", "/dev"}, prof.Writable...) {
		if rw := resolvedPath(w); rw != real && within(real, rw) {
			r.emit(journal.System, KindNotice, fmt.Sprintf("in place: %s's state (%s) lies in the writable %s, so the commands it starts can write its transcripts and sessions too; they come back into your home at the end", r.adapter.Name(), dir, w), nil)
			return prof
		}
	}
	if !slices.Contains(prof.AgentState, real) {
		prof.AgentState = append(prof.AgentState, real)
	}
	return prof
}

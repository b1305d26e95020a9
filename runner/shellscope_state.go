package runner

import (
	"fmt"
	"slices"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/sandbox"
)

// keepAgentState makes the run's agent state dir (Claude Code's config
// dir, CODEX_HOME: its transcripts and sessions) the agent's alone: the
// shells the agent starts enter a domain that cannot write it
// (sandbox.Profile.AgentState, internal/shellscope), so no command can
// plant a transcript or a session the person's own `claude --continue`
// or `codex resume` acts on later. Only for a scoped agent whose state dir
// is a writable root of its own; one that lies in another writable root
// (a [sandbox] writable that holds the cache dir, a home under /tmp)
// cannot be left out of that root's grant, and the run's journal says
// so. Called with the wrapper shown (withShellScope).
func (r *containment) keepAgentState(prof sandbox.Profile) sandbox.Profile {
	if r.ws == nil {
		return prof
	}
	dir := r.agentStateDir()
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

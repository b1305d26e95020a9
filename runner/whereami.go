package runner

import (
	"os"

	"github.com/sentinelhq/sentinel/internal/agentutil"
	"github.com/sentinelhq/sentinel/sandbox"
)

// surroundings is what this run tells its coder about where it is
// (agentutil.WhereAmI): the workspace copy, the sandbox's toolchains and
// caches, the proxy, and who answers asks when nobody is at the terminal.
// Each real agent's Prepare receives its text.
func (r *containment) surroundings() agentutil.Surroundings {
	s := agentutil.Surroundings{Workspace: r.ws.Dir, InPlace: r.opts.InPlace, Sandboxed: r.opts.Sandbox.Mode != sandbox.ModeOff}
	if s.Sandboxed {
		home, _ := os.UserHomeDir()
		s.Toolchains = sandbox.DetectToolchains(home, os.Getenv).Names()
		for _, c := range sandbox.BuildCacheEnv("") {
			s.Caches = append(s.Caches, c.Env)
		}
		s.NetworkAsks = true
	}
	// Nobody answers when there is no person, or when a supervisor decides
	// what the person leaves unanswered (walk-away).
	s.Supervised = r.sup != nil
	s.Unattended = r.opts.Approval.Person == nil || (r.sup != nil && r.opts.Supervision.AwayGrace > 0)
	return s
}

// whereAmI is the text of surroundings.
func (r *containment) whereAmI() string { return agentutil.WhereAmI(r.surroundings()) }

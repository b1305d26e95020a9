package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/sentinelhq/sentinel/internal/agentutil"
)

// AgentNeeds is what a coding agent needs inside the sandbox beyond
// the default profile: copies of the person's login and settings, and the
// environment variables that carry its API keys and endpoints. Each agent
// says its own in the agent registry (runner/agents: coder.Home is this
// type, agentutil.Home); the sandbox only applies them.
//
// The agent's real state in the person's home is never writable: its
// start-up files (~/.claude/settings.json hooks, ~/.claude.json MCP servers,
// ~/.codex/config.toml, ~/.gemini/settings.json, …) run code the next time
// the person starts that agent outside the sandbox. WithAgent gives it a
// per-run home instead, the way `sentinel run` gives each adapter a per-run
// state directory.
type AgentNeeds = agentutil.Home

// WithAgent returns p set up for an agent with needs n on a per-run home:
// runHome (an empty directory the caller made and removes afterwards, not
// inside anything the profile hides or makes read-only) gets copies of the
// agent's files from home, becomes HOME inside and is the only place outside
// the workspace the command may write. Nothing written there reaches the
// person's home.
func (p Profile) WithAgent(n AgentNeeds, home, runHome string) (Profile, error) {
	if runHome == "" {
		return p, fmt.Errorf("an agent's sandbox needs a per-run home")
	}
	dirEnv := ""
	if n.DirEnv != "" {
		dirEnv = os.Getenv(n.DirEnv)
	}
	for _, rel := range n.Copy {
		src := n.Source(home, dirEnv, rel)
		if err := agentutil.CopyPrivate(src, filepath.Join(runHome, rel)); err != nil {
			return p, fmt.Errorf("copy %s into the sandbox's home: %w", src, err)
		}
	}
	p.Writable = append(p.Writable, runHome)
	p.PassEnv = append(p.PassEnv, n.PassEnv...)
	if n.MoreEnv != nil {
		p.PassEnv = append(p.PassEnv, n.MoreEnv(runHome)...)
	}
	p.PassEnv = slices.DeleteFunc(p.PassEnv, func(k string) bool { return n.DirEnv != "" && k == n.DirEnv })
	p.Env = append(p.Env, "HOME="+runHome)
	return p, nil
}

package agentutil

import (
	"path/filepath"
	"strings"
)

// Home is what an agent needs of the person's home inside a bare sandbox
// (sandbox --agent): copies of its login and settings, and the variables
// that carry its API keys and endpoints. Each agent's folder declares its
// own (coder.Home); the sandbox applies it (sandbox.AgentNeeds).
type Home struct {
	// Copy are the files, relative to home, copied into the per-run home
	// when the person has them.
	Copy []string
	// DirEnv names the variable that moves the agent's files out of home
	// (CLAUDE_CONFIG_DIR, CODEX_HOME), and Dir the folder under home it
	// stands for (".claude", ".codex"): when the variable is set, every
	// entry of Copy is read from it, Dir's part of its path taken off
	// (".codex/auth.json" from $CODEX_HOME/auth.json, ".claude.json" from
	// $CLAUDE_CONFIG_DIR/.claude.json). Inside it is never set: the
	// per-run home holds everything.
	DirEnv string
	Dir    string
	// PassEnv are the variables passed in as they are.
	PassEnv []string
	// MoreEnv, when set, names more variables to pass, read from the
	// copies in the per-run home (Codex's provider's env_key).
	MoreEnv func(runHome string) []string
}

// Source is where the Copy entry rel is read from: under home, or under
// dirEnv (the value of DirEnv) when that is set.
func (h Home) Source(home, dirEnv, rel string) string {
	if h.DirEnv == "" || dirEnv == "" {
		return filepath.Join(home, rel)
	}
	if h.Dir != "" {
		rel = strings.TrimPrefix(filepath.ToSlash(rel), strings.TrimSuffix(filepath.ToSlash(h.Dir), "/")+"/")
	}
	return filepath.Join(dirEnv, rel)
}

package claude

import "github.com/sentinelhq/sentinel/internal/agentutil"

// Needs is what a run adds to its sandbox profile for Claude Code.
type Needs = agentutil.Needs

// RunPaths say where one run lives, for Prepare.
type RunPaths struct {
	Home      string // the person's home directory (read, never written)
	Workspace string // the coder's working directory
	// StateDir becomes the run's CLAUDE_CONFIG_DIR (see Options.ConfigDir).
	// It must be writable in the sandbox and outside the run directory the
	// profile makes read-only. Empty keeps Claude Code's state in home.
	StateDir string
	// APIKey, when set, is marked approved in the run's state so that
	// interactive Claude Code does not stop to ask whether to use it.
	APIKey string
}

// Prepare readies Claude Code's state for one run (PrepareConfigDir into
// StateDir) and returns what the sandbox must allow. Call it once, after
// the workspace exists and before Argv and Env.
func (a *Adapter) Prepare(p RunPaths) (Needs, error) {
	if p.StateDir != "" {
		a.opts.ConfigDir = p.StateDir
		if err := a.PrepareConfigDir(p.Home, p.Workspace, p.APIKey); err != nil {
			return Needs{}, err
		}
	}
	return Needs{
		Writable:   a.StatePaths(p.Home),
		Readable:   a.ReadablePaths(),
		Protected:  a.ProtectedPaths(p.Home),
		PassEnv:    a.PassEnv(),
		DropEnv:    a.DropEnv(),
		AllowHosts: a.AllowHosts(),
	}, nil
}

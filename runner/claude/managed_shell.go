package claude

import (
	"os"
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/shellscope"
)

// launchShell is the shell the run starts Claude Code with in place: the
// person's $SHELL when it is an absolute path to a bash, zsh or sh (which
// the sandbox shows as the shell wrapper, runner's agentShellsInScope),
// else /bin/bash (runner's shellInScope gives the agent that one then).
//
// The managed policy names it as SHELL and CLAUDE_CODE_SHELL in its env,
// which outranks every settings file's: Claude Code 2.1.332 takes a
// settings file's env into its own environment and, once a first Bash
// call is allowed, starts its shell with it (`-c env`, the shell
// snapshot, then every command inside it). A repository's
// .claude/settings.json naming a program of the project there (a coder's
// write in an earlier run) had that program run in each later in-place
// run with no hook asked about it, and a program that is no system shell
// would sit outside the signal scope (internal/shellscope), from where it
// could kill the hooks.
func launchShell() string {
	sh := os.Getenv("SHELL")
	if filepath.IsAbs(sh) {
		if real, err := filepath.EvalSymlinks(sh); err == nil && shellscope.Covers(real) {
			return sh
		}
	}
	return "/bin/bash"
}

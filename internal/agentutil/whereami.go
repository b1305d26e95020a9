package agentutil

import (
	"fmt"
	"strings"
)

// Surroundings is what a coder is told about where it runs. The runner
// fills it in; each adapter hands the text of WhereAmI to its agent through
// the agent's own system-prompt mechanism (Claude Code's
// --append-system-prompt, Codex's developer instructions, …).
type Surroundings struct {
	// Workspace is the coder's working directory: a disposable copy of the
	// person's project.
	Workspace string
	// InPlace: the working directory is the person's project itself
	// (sentinel exec), not a copy; changes are not reviewed before they
	// count.
	InPlace bool
	// Sandboxed is false with --sandbox off.
	Sandboxed bool
	// Toolchains are the names of the person's toolchains shown read-only
	// (go, pyenv, rustup, …).
	Toolchains []string
	// Caches are the variables naming the writable build caches (GOCACHE,
	// PIP_CACHE_DIR, …).
	Caches []string
	// NetworkAsks is true when a host not yet allowed becomes an approval
	// request (the sandbox's proxy); false when the coder has no network.
	NetworkAsks bool
	// Unattended is true when nobody is at the terminal to answer (headless
	// or walk-away runs, or a supervisor deciding what the person leaves).
	Unattended bool
	// Supervised is true when a supervisor model decides the asks nobody
	// answers.
	Supervised bool
}

// WhereAmI is the short text that tells a coder where it is: a disposable,
// reviewed copy; what the sandbox gives it; how network and asks are
// decided. It holds no secrets and no paths beyond the workspace.
func WhereAmI(s Surroundings) string {
	var b strings.Builder
	b.WriteString("You are running under Sentinel. ")
	ws := "The working directory"
	if s.Workspace != "" {
		ws = fmt.Sprintf("The working directory (%s)", s.Workspace)
	}
	if s.InPlace {
		b.WriteString(ws + " is the person's project itself: your changes take effect there directly, with no review step; .git hooks and config are read-only.")
	} else {
		b.WriteString(ws + " is a disposable copy of the person's project: your changes are reviewed before they land in the real project, so work there and do not look for the original.")
	}
	if s.Sandboxed {
		b.WriteString("\nIt runs in a sandbox: the home directory is hidden except ")
		if len(s.Toolchains) > 0 {
			b.WriteString("the person's toolchains (" + strings.Join(s.Toolchains, ", ") + "), read-only")
		} else {
			b.WriteString("what the agent itself needs")
		}
		b.WriteString("; credentials are hidden.")
		if len(s.Caches) > 0 {
			b.WriteString(" Build caches are writable and kept per project (" + strings.Join(s.Caches, ", ") + ").")
		}
	}
	if s.NetworkAsks {
		b.WriteString("\nNetwork goes through a proxy: a host not allowed yet becomes an approval request; a refused host stays refused, so do not retry it blindly.")
	}
	b.WriteString("\nSome actions are asked about before they run; a denial carries its reason: read it and change your approach instead of retrying the same action.")
	if s.Unattended {
		if s.Supervised {
			b.WriteString("\nNobody may be at the terminal: asks nobody answers are decided by a supervisor model, and denied when it cannot answer.")
		} else {
			b.WriteString("\nNobody is at the terminal: asks that policy does not already allow are denied.")
		}
	}
	return b.String()
}

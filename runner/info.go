package runner

import "time"

// Info is what a view shows about a run (the TUI's status bar reads it).
type Info struct {
	RunID   string
	Coder   string // adapter name: demo, claude, codex, …
	Task    string
	Sandbox string // e.g. "bwrap+landlock+seccomp" or "off"
	// SandboxOff is true when the run has no sandbox: views show it in red.
	SandboxOff bool
	Network    string // e.g. "proxy (3 hosts)" or "none"
	// FullScreenCoder is true when the coder draws its own TUI (Claude Code,
	// Codex interactive): coder output goes through a terminal emulator.
	FullScreenCoder bool
	// PerCommandApproval is false for coders with no hook protocol (any
	// command): views say so plainly.
	PerCommandApproval bool
	// Supervised is true when a supervisor model reads what the person
	// types during the run and decides what the coder is told.
	Supervised bool
	Started    time.Time
	Workspace  string // the coder's workspace (for path previews)
	// InPlace is true for sentinel exec and the shims: the coder works on
	// the person's own files, and there is no verification, review or
	// landing — only the report of what changed (and sentinel undo).
	InPlace bool
	// Journal is the run's events.jsonl: a view keeps a window of a long
	// run in memory and reads older lines back from it.
	Journal string
}

// Package coder is the contract between a Run and one kind of coding agent:
// the Adapter every agent's folder implements, what a run tells an adapter
// before the agent starts (Setup), how the agent is spoken to (Transport),
// and where its failure is read from (FailureSource).
//
// It imports nothing of runner, so the agents' folders and the registry in
// runner/agents sit below the Run that uses them. It must not hold any one
// agent's knowledge: that lives in the agent's own folder.
package coder

import "github.com/sentinelhq/sentinel/internal/agentutil"

// Adapter is how Sentinel starts and talks to one kind of coder.
type Adapter interface {
	Name() string
	// Preflight checks the coder can start here (binary installed, version).
	Preflight() error
	// Argv is the command to run under the pty, in the workspace.
	Argv(task string) ([]string, error)
	// Env is what the coder needs on top of the sandbox's allowlist.
	Env() []string
	// FullScreen says whether the coder draws its own TUI.
	FullScreen() bool
	// PerCommandApproval says whether the coder asks before each action.
	PerCommandApproval() bool
	// SteerBytes encodes a steering message for the coder's pty input.
	SteerBytes(text string) []byte
}

// Setup is what a run tells an adapter before its agent starts: where
// things are, and how the sandbox holds them.
type Setup struct {
	Home      string // the person's home
	Workspace string // where the agent works (the copy, or the place in place)
	Source    string // what the workspace was made from, read-only
	Project   string // the person's project root
	StateDir  string // the agent's per-run state directory, removed at the end
	PolicyDir string // Sentinel's policy files for the run
	Socket    string // the run's broker socket
	Sentinel  string // the sentinel binary
	WhereAmI  string // the system prompt that says where the agent is
	// Contained says the sandbox enforces its places (fixed read-only
	// files shown at a path).
	Contained bool
	// InPlace says the agent works on the person's own files
	// (sentinel exec): its history is kept.
	InPlace bool
}

// Prepared is what an adapter made for the run: what it needs from the
// sandbox, and notes for the journal.
type Prepared struct {
	Needs agentutil.Needs
	Notes []string
}

// Preparer is an adapter with per-run state to make before its agent
// starts; an adapter without any does not implement it.
type Preparer interface {
	PrepareRun(Setup) (Prepared, error)
}

// Transport is how a run speaks to its agent.
type Transport int

const (
	// PTY: the agent's terminal is the run's pty (any program, the
	// interactive agents).
	PTY Transport = iota
	// StreamJSON: headless Claude Code, stream-json on a pipe, output on
	// the pty.
	StreamJSON
	// AppServer: Codex's app-server, JSON-RPC on pipes.
	AppServer
	// ACP: an ACP agent, JSON-RPC on pipes.
	ACP
)

// Spoken is an adapter that says how it is spoken to; one that does not
// is a PTY coder.
type Spoken interface {
	Transport() Transport
}

// TransportOf is how a is spoken to.
func TransportOf(a Adapter) Transport {
	if s, ok := a.(Spoken); ok {
		return s.Transport()
	}
	return PTY
}

// FailureSource is where a PTY coder's failure is read once it has ended.
type FailureSource int

const (
	// NoFailure: the coder has no way to say it failed (the demo coder).
	NoFailure FailureSource = iota
	// ExitStatus: a non-zero exit and the last line it printed.
	ExitStatus
	// StopHook: the agent's own stop-failure hook report (Claude Code's
	// StopFailure); a later stop clears it.
	StopHook
	// StopHookOrExit: the stop-failure report, else the exit status.
	StopHookOrExit
)

// Failing is an adapter that says where its failure is read from; one
// that does not has NoFailure.
type Failing interface {
	FailureSource() FailureSource
}

// FailureSourceOf is where a's failure is read from.
func FailureSourceOf(a Adapter) FailureSource {
	if f, ok := a.(Failing); ok {
		return f.FailureSource()
	}
	return NoFailure
}

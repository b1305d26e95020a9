package service

import (
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// The service journal's kinds (lane system), in
// $XDG_STATE_HOME/sentinel/service/events.jsonl.
const (
	KindServiceStart    journal.Kind = "service-start"    // ServiceStart
	KindServiceStop     journal.Kind = "service-stop"     // nil
	KindRunRegistered   journal.Kind = "run-registered"   // RunEntry
	KindRunRefused      journal.Kind = "run-refused"      // Refusal
	KindRunUnregistered journal.Kind = "run-unregistered" // RunEntry
	KindAgentLaunched   journal.Kind = "agent-launched"   // Agent
	KindAgentAdopted    journal.Kind = "agent-adopted"    // Agent (attribution)
	KindAgentBypassed   journal.Kind = "agent-bypassed"   // Agent
	KindAgentTelemetry  journal.Kind = "agent-telemetry"  // Telemetry
	KindAgentEnding     journal.Kind = "agent-ending"     // Ending
	KindAgentTerminated journal.Kind = "agent-terminated" // Agent (State terminated, Reason)
)

// State is what the service knows of an agent process.
type State string

// The states `sentinel ps` shows.
const (
	// StateLaunched: a registered Sentinel run's process is its ancestor.
	StateLaunched State = "launched"
	// StateBypassed: started with the bypass variable (BypassEnv) set.
	StateBypassed State = "bypassed"
	// StateAdopted: started any other way; attributed and watched.
	StateAdopted State = "adopted"
	// StateUnsupervised: seen by `sentinel ps` with no service running.
	StateUnsupervised State = "unsupervised"
	// StateTerminated: ended by the machine policy, or gone.
	StateTerminated State = "terminated"
)

// BypassEnv is the emergency bypass variable: an agent started with it set
// to 1 is journaled as bypassed and never ended. The shims' bypass is the
// same variable (cmd/sentinel/shims.go).
const BypassEnv = "SENTINEL_SHIM_BYPASS"

// Agent is one agent process. Its JSON is `sentinel ps --json`'s element:
// fields are only ever added.
type Agent struct {
	PID     int32     `json:"pid"`
	PPID    int32     `json:"ppid"`
	Program string    `json:"program"`
	State   State     `json:"state"`
	RunID   string    `json:"run_id,omitempty"`
	Cwd     string    `json:"cwd,omitempty"`
	Exe     string    `json:"exe,omitempty"`
	Argv    []string  `json:"argv,omitempty"`
	User    string    `json:"user,omitempty"`
	UID     int       `json:"uid"`
	Started time.Time `json:"started"`
	// Tree is the pid's ancestry, nearest first: pid and program of each.
	Tree []TreeNode `json:"tree,omitempty"`
	// Reason says why it was ended (or that it exited) when terminated.
	Reason string     `json:"reason,omitempty"`
	Ended  *time.Time `json:"ended,omitempty"`
	// StartMS is the start time the pid's identity is checked with.
	StartMS int64 `json:"start_ms"`
}

// TreeNode is one ancestor of an agent.
type TreeNode struct {
	PID  int32  `json:"pid"`
	Comm string `json:"comm,omitempty"`
}

// Telemetry is what an adopted agent does, read from /proc: its children
// and its network connections.
type Telemetry struct {
	PID         int32        `json:"pid"`
	Program     string       `json:"program"`
	Children    []Child      `json:"children,omitempty"`
	Connections []Connection `json:"connections,omitempty"`
}

// Child is a child process of an agent.
type Child struct {
	PID  int32    `json:"pid"`
	Comm string   `json:"comm,omitempty"`
	Argv []string `json:"argv,omitempty"`
}

// Connection is one socket of an agent's.
type Connection struct {
	Type   string `json:"type"` // tcp, udp, tcp6, udp6, unix
	Local  string `json:"local,omitempty"`
	Remote string `json:"remote,omitempty"`
	Status string `json:"status,omitempty"`
}

// Ending says the machine policy is ending an agent: with what and why.
type Ending struct {
	Agent  Agent  `json:"agent"`
	Signal string `json:"signal"` // TERM or KILL
	Why    string `json:"why"`
	// Descendants are the processes the agent started, ended with it.
	Descendants []int32 `json:"descendants,omitempty"`
}

// Refusal is a registration the service refused, and why.
type Refusal struct {
	RunID   string `json:"run_id"`
	PID     int    `json:"pid"`
	PeerPID int    `json:"peer_pid"`
	Why     string `json:"why"`
}

// ServiceStart is the service's policy as it started.
type ServiceStart struct {
	PID             int      `json:"pid"`
	RequireLauncher bool     `json:"require_launcher"`
	AllowedApps     []string `json:"allowed_apps,omitempty"`
	Grace           string   `json:"grace"`
	ScanInterval    string   `json:"scan_interval"`
}

// AsAgent decodes an agent event of the service journal.
func AsAgent(ev journal.Event) (Agent, bool) {
	return journal.As[Agent](ev, journal.System, KindAgentLaunched, KindAgentAdopted, KindAgentBypassed, KindAgentTerminated)
}

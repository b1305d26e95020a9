package queue

import (
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/policy"
)

// The ops this package mounts on the service (PROTOCOL.md).
const (
	OpPost     = "queue.post"     // a run posts a request and waits (stream: {id}, then the answer)
	OpList     = "queue.list"     // the pending requests, oldest first
	OpAnswer   = "queue.answer"   // approve or deny one by id
	OpWithdraw = "queue.withdraw" // the posting run takes its request back, saying why
	OpWatch    = "queue.watch"    // a stream of what opens and closes
	OpReport   = "status.report"  // a run reports its state
	OpStatus   = "status.list"    // every run that reported, with its pending count
	OpRefresh  = "status.refresh" // read an ended run's state again from its own records (after a review)
)

// Post is the body of queue.post.
type Post struct {
	Run     string            `json:"run"`
	Project string            `json:"project"`
	Coder   string            `json:"coder,omitempty"`
	Request approvals.Request `json:"request"`
	Verdict policy.Verdict    `json:"verdict"`
	// Workspace is where the run's coder works (its disposable copy, or
	// the project in place): the console shows the request's paths
	// relative to it, as the run's own screen does. Empty is the project.
	Workspace string `json:"workspace,omitempty"`
	// AtTerminal: the card shows at the run's terminal too (no nudge).
	AtTerminal bool `json:"at_terminal,omitempty"`
}

// Posted is the first reply of queue.post: the request's id in the queue.
type Posted struct {
	ID string `json:"id"`
}

// Why is the policy's rule and reason for asking.
type Why struct {
	Rule   string `json:"rule,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// Entry is one pending request, as queue.list and queue.watch give it.
// Summary and Policy are made safe for a terminal by the service;
// Request and Verdict are the run's own, for the console's card (which
// sanitizes what it draws).
type Entry struct {
	ID           string            `json:"id"`
	Run          string            `json:"run"`
	Project      string            `json:"project"`
	Coder        string            `json:"coder,omitempty"`
	Workspace    string            `json:"workspace,omitempty"` // see Post
	Kind         policy.Kind       `json:"kind"`
	Summary      string            `json:"summary"`
	Policy       Why               `json:"policy"`
	WaitingSince time.Time         `json:"waiting_since"`
	AtTerminal   bool              `json:"at_terminal,omitempty"`
	Request      approvals.Request `json:"request"`
	Verdict      policy.Verdict    `json:"verdict"`
}

// Answered is the reply to queue.answer: what the answer did beyond its
// decision (a remembered scope narrowed, and why).
type Answered struct {
	Note string `json:"note,omitempty"`
}

// The two decisions an Answer carries.
const (
	Approve = "approve"
	Deny    = "deny"
)

// Answer is the body of queue.answer, and what the posting run receives.
type Answer struct {
	ID       string `json:"id"`
	Decision string `json:"decision"` // approve | deny
	// Remember, with approve: the scope (run, project, user) to remember
	// the approval in. Match (and Also, a registry preset's other hosts)
	// is the breadth the console's card chose; empty is the narrowest the
	// run's card offers. The run checks both and its broker stores them.
	Remember   approvals.Scope   `json:"remember,omitempty"`
	Match      *approvals.Match  `json:"match,omitempty"`
	Also       []approvals.Match `json:"also,omitempty"`
	ExpiresSec int64             `json:"expires_sec,omitempty"`
	Message    string            `json:"message,omitempty"` // with deny: for the coder
	Via        string            `json:"via,omitempty"`     // queue | console: where it was answered
	// Seen, with approve of a write or edit: SeenOf the content the person
	// was shown (seen.go); the queue refuses the approval without it.
	Seen string `json:"seen,omitempty"`
}

// Withdraw is the body of queue.withdraw.
type Withdraw struct {
	ID     string `json:"id"`
	Reason string `json:"reason"`
}

// Event is one reply of queue.watch: the pending entries first (Open,
// oldest first, then a Synced event), then each change as it happens.
type Event struct {
	Type   string `json:"type"` // open | closed | synced
	Entry  *Entry `json:"entry,omitempty"`
	ID     string `json:"id,omitempty"`     // closed: which
	Reason string `json:"reason,omitempty"` // closed: how (answered in the console, answered at the terminal, …)
}

// The Event types.
const (
	EventOpen   = "open"
	EventClosed = "closed"
	EventSynced = "synced"
)

// The states a run reports (sentinel status). "waiting for you" is not
// reported: the service says it of a running run with pending requests.
const (
	StateRunning   = "running"
	StateWaiting   = "waiting for you"
	StateReviewing = "reviewing"
	StateLanded    = "landed"
	StateFailed    = "failed"
	StateStuck     = "stuck"
	StateStopped   = "stopped" // an older sentinel's word for interrupted, rejected or awaiting-review (states.go)
	StateGone      = "gone"    // its process ended without saying how the run ended
)

// Report is the body of status.report.
type Report struct {
	Run     string    `json:"run"`
	Project string    `json:"project"`
	Coder   string    `json:"coder,omitempty"`
	State   string    `json:"state"`
	Started time.Time `json:"started"`
	// Flagged are lines the person must read that the run told only where
	// a client may not show them (an mcp session's DANGEROUS lines: files
	// that run code later its commands left), at most MaxFlagged.
	Flagged []string `json:"flagged,omitempty"`
}

// MaxFlagged bounds a report's Flagged lines (the first ones are kept).
const MaxFlagged = 20

// RunStatus is one run in status.list.
type RunStatus struct {
	Report
	PID     int       `json:"pid"`
	Updated time.Time `json:"updated"`
	Pending int       `json:"pending"`
}

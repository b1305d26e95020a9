package approvals

// This file is the contract the runner, the TUI and the hook commands code
// against. Keep these names and meanings stable; add fields freely.

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/policy"
)

// EnvSocket names the environment variable through which the runner tells
// the coder's process tree (and so every hook command) where the broker is.
const EnvSocket = "SENTINEL_SOCKET"

// EnvRun names the environment variable holding the run id.
const EnvRun = "SENTINEL_RUN"

// Request is one thing a coder wants to do.
type Request struct {
	ID         string          `json:"id,omitempty"` // assigned by the broker
	Kind       policy.Kind     `json:"kind"`
	Command    string          `json:"command,omitempty"` // shell
	Path       string          `json:"path,omitempty"`    // write / edit / read
	URL        string          `json:"url,omitempty"`     // net
	Host       string          `json:"host,omitempty"`    // net
	Port       int             `json:"port,omitempty"`    // net
	Tool       string          `json:"tool,omitempty"`    // mcp / other: the tool name
	Input      json.RawMessage `json:"input,omitempty"`   // the adapter's raw tool input, for display
	Cwd        string          `json:"cwd,omitempty"`
	Adapter    string          `json:"adapter,omitempty"` // demo, claude, codex, proxy, …
	ToolCallID string          `json:"tool_call_id,omitempty"`
}

// Outcome is allow or deny: every request gets exactly one.
type Outcome string

// The two outcomes.
const (
	OutcomeAllow Outcome = "allow"
	OutcomeDeny  Outcome = "deny"
)

// Decision answers a Request.
type Decision struct {
	RequestID string  `json:"request_id,omitempty"`
	Outcome   Outcome `json:"decision"`
	// By says who decided: "policy:<rule>", "template:<id>[+<id>…]",
	// "person", "supervisor", "timeout", "nobody" (no decider configured) or
	// "error".
	By      string `json:"by"`
	Reason  string `json:"reason"`
	Message string `json:"message,omitempty"` // for a deny: what the coder is told
	// Remember is set when the person approved and remembered, so adapters
	// with their own session grants (Codex acceptForSession, ACP allow_always)
	// can pass that on.
	Remember  bool  `json:"remember,omitempty"`
	LatencyMS int64 `json:"latency_ms"`
	// Grant is how broad a remembered approval is (set by a decider with
	// Remember); the broker stores it as a template. Never sent over the wire.
	Grant *GrantSpec `json:"-"`
	// Hosts are the registry hosts a package install was approved with,
	// allowed for the rest of the run (fetchgrant.go).
	Hosts []string `json:"hosts,omitempty"`
}

// Allowed reports whether the decision lets the request proceed.
func (d Decision) Allowed() bool { return d.Outcome == OutcomeAllow }

// Decider answers the requests that policy asks about and no template covers.
type Decider interface {
	Decide(ctx context.Context, p *Prompt) Decision
}

// Prompt is a request waiting for a decider (a person or a model).
type Prompt struct {
	Request Request
	Verdict policy.Verdict
	// Recommendation is a supervisor model's advice shown on the card, if any.
	Recommendation string
	// Fetch, for a package install, is the registry hosts it will need,
	// which the card offers to allow with it (fetchgrant.go).
	Fetch    *policy.Fetch
	Opened   time.Time
	reply    chan Answer
	done     chan struct{}
	doneOnce sync.Once
}

// NewPrompt makes a prompt that can be answered once.
func NewPrompt(req Request, v policy.Verdict) *Prompt {
	return &Prompt{Request: req, Verdict: v, Opened: time.Now(), reply: make(chan Answer, 1), done: make(chan struct{})}
}

// Done is closed once the request is decided — by this prompt's answer, a
// timeout, or the coder giving up — so a view can drop a skipped card.
func (p *Prompt) Done() <-chan struct{} { return p.done }

// finish marks the prompt decided.
func (p *Prompt) finish() { p.doneOnce.Do(func() { close(p.done) }) }

// Answer delivers the person's answer; only the first answer counts.
func (p *Prompt) Answer(a Answer) {
	select {
	case p.reply <- a:
	default:
	}
}

// Replies is where the answer arrives.
func (p *Prompt) Replies() <-chan Answer { return p.reply }

// AnswerKind is what the person chose on the card.
type AnswerKind int

// The card's choices. Skip is handled by the view: the prompt stays pending.
const (
	ApproveOnce AnswerKind = iota
	ApproveRemember
	Deny
)

// Answer is a person's reply to a Prompt.
type Answer struct {
	Kind    AnswerKind
	Message string     // for Deny: an optional message for the coder
	Grant   *GrantSpec // for ApproveRemember: how broad the remembered grant is
	// WithHosts, on an approval, also allows the prompt's Fetch hosts for
	// the rest of the run.
	WithHosts bool
}

// Scope is where a remembered grant lives.
type Scope string

// The scopes, narrowest first.
const (
	ScopeRun     Scope = "run"     // in memory for this run
	ScopeProject Scope = "project" // .sentinel/templates.toml
	ScopeUser    Scope = "user"    // templates.toml in the user config directory
)

// Match is what a template matches on — exactly one field is set.
type Match struct {
	Prefix []string `toml:"prefix,omitempty" json:"prefix,omitempty"` // shell: argv token prefix
	Exact  []string `toml:"exact,omitempty" json:"exact,omitempty"`   // shell: exact argv
	Path   string   `toml:"path,omitempty" json:"path,omitempty"`     // write/edit: glob inside the workspace
	Host   string   `toml:"host,omitempty" json:"host,omitempty"`     // net: exact host[:port]
	// ProgramSHA256 binds a prefix or exact match to the content of the
	// workspace script it runs, as it was when remembered (see program.go).
	ProgramSHA256 string `toml:"program_sha256,omitempty" json:"program_sha256,omitempty"`
}

// GrantSpec is what the person chose when remembering.
type GrantSpec struct {
	Scope   Scope
	Match   Match
	Expires time.Duration // 0 means never
	// Also are further matches remembered with Match, in the same scope and
	// for as long: the other hosts of a package registry preset
	// (registries.toml). Each becomes its own template.
	Also []Match
}

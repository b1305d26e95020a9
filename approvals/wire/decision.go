package wire

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
	By string `json:"by"`
	// TemplateNames are the readable names of the templates in By
	// ("template:…"), in By's order, so every record can say what decided
	// by name and not by id alone.
	TemplateNames []string `json:"template_names,omitempty"`
	Reason        string   `json:"reason"`
	Message       string   `json:"message,omitempty"` // for a deny: what the coder is told
	// Remember is set when the person approved and remembered, so adapters
	// with their own session grants (Codex acceptForSession, ACP allow_always)
	// can pass that on.
	Remember  bool  `json:"remember,omitempty"`
	LatencyMS int64 `json:"latency_ms"`
	// Grant is how broad a remembered approval is (set by a decider with
	// Remember); the broker stores it as a template. Never sent over the wire.
	Grant *GrantSpec `json:"-"`
	// Hosts are the registry hosts a package install was approved with,
	// allowed for the rest of the run (approvals/fetchgrant.go).
	Hosts []string `json:"hosts,omitempty"`
}

// Allowed reports whether the decision lets the request proceed.
func (d Decision) Allowed() bool { return d.Outcome == OutcomeAllow }

// DenyBy is a deny by `by` (see Decision.By) for reason, with the message
// an agent shows the model: "Sentinel denied this: <reason>".
func DenyBy(by, reason string) Decision {
	return Decision{Outcome: OutcomeDeny, By: by, Reason: reason, Message: "Sentinel denied this: " + reason}
}

package wire

// ProtocolVersion is the version of the broker's socket protocol
// (approvals/PROTOCOL.md). A message with another version is answered with
// a deny.
const ProtocolVersion = 1

// MaxMessage bounds one protocol line (a Write tool's content travels in
// Input); a longer line is a malformed request.
const MaxMessage = 16 << 20

// Message types.
const (
	TypeRequest  = "request"  // client → broker: ask for a decision
	TypeReport   = "report"   // client → broker: something happened; journal it
	TypeDecision = "decision" // broker → client: the one answer to a request
	TypeAck      = "ack"      // broker → client: a report was journaled
	TypeError    = "error"    // broker → client: a report could not be taken
)

// Message is one line of the protocol, in either direction.
type Message struct {
	V        int       `json:"v"`
	Type     string    `json:"type"`
	ID       string    `json:"id,omitempty"` // chosen by the client; echoed in the answer
	Request  *Request  `json:"request,omitempty"`
	Report   *Report   `json:"report,omitempty"`
	Decision *Decision `json:"decision,omitempty"`
	Error    string    `json:"error,omitempty"`
	// Note, on an ack of a tool result: what Sentinel refused meanwhile
	// that the coder's agent should be told (approvals' Broker.NoteForCoder).
	Note string `json:"note,omitempty"`
}

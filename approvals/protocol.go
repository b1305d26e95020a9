package approvals

import "github.com/sentinelhq/sentinel/approvals/wire"

// ProtocolVersion is the version of the broker's socket protocol
// (PROTOCOL.md). A message with another version is answered with a deny.
const ProtocolVersion = wire.ProtocolVersion

// maxMessage bounds one protocol line (a Write tool's content travels in
// Input); a longer line is a malformed request.
const maxMessage = wire.MaxMessage

// Message types.
const (
	msgRequest  = wire.TypeRequest  // client → broker: ask for a decision
	msgReport   = wire.TypeReport   // client → broker: something happened; journal it
	msgDecision = wire.TypeDecision // broker → client: the one answer to a request
	msgAck      = wire.TypeAck      // broker → client: a report was journaled
	msgError    = wire.TypeError    // broker → client: a report could not be taken
)

// message is one line of the protocol, in either direction.
type message = wire.Message

// Report is something an adapter observed that needs no decision
// (wire.Report): a tool's result (PostToolUse), the coder stopping, a
// notification. The broker journals it on the named lane ("tool" or
// "coder"), marked as the coder's (see record).
type Report = wire.Report

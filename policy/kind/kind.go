// Package kind names what a request wants to do (policy.Kind): a shell
// line, a write, an edit, a read, the network, an MCP tool or any other
// tool. It imports nothing, so the hook's side of the broker's protocol
// (approvals/wire), which runs on every tool call, can name a request's
// kind without linking the policy engine; policy.Kind is this type.
package kind

// Kind is what a request wants to do.
type Kind string

// Request kinds shared by every adapter.
const (
	Shell Kind = "shell"
	Write Kind = "write"
	Edit  Kind = "edit"
	Read  Kind = "read"
	Net   Kind = "net"
	MCP   Kind = "mcp"
	Other Kind = "other"
)

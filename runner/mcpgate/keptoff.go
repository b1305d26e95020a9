package mcpgate

import "fmt"

// Why a person's MCP server is kept off a run (KeptOff).
const (
	NoGate    = iota // the run has no gate to ask about the server's calls
	Remote           // a remote (http, sse) server: only stdio servers run behind the gate
	NoCommand        // it names no command to start behind the gate
)

// KeptOff is the run's note that agent's entry kept the person's MCP
// server off, and why: the one wording every agent's folder uses.
func KeptOff(agent, server string, why int) string {
	switch why {
	case NoGate:
		return fmt.Sprintf("%s: your MCP server %q is kept off: this run has no MCP gate to ask Sentinel about its tool calls", agent, server)
	case Remote:
		return fmt.Sprintf("%s: your remote MCP server %q is kept off: Sentinel gates only stdio MCP servers (it asks about each tool call there)", agent, server)
	}
	return fmt.Sprintf("%s: your MCP server %q is kept off: it names no command Sentinel can start behind its gate", agent, server)
}

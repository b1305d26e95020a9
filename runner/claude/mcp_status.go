package claude

import (
	"encoding/json"
	"fmt"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// KindMCPFailed is a system line for one of the person's MCP servers that
// Claude Code could not connect (its session's init line says so): the
// run names it instead of the model silently lacking its tools.
const KindMCPFailed journal.Kind = "mcp-server-failed"

// mcpServerStatus is one entry of the init line's mcp_servers.
type mcpServerStatus struct {
	Name   string `json:"name"`
	Status string `json:"status"` // connected, pending, failed, needs-auth, disabled
}

// mcpFailures are the run's lines for the servers that did not connect.
func mcpFailures(servers []mcpServerStatus) []Line {
	var out []Line
	for _, s := range servers {
		switch s.Status {
		case "failed", "needs-auth":
			data, _ := json.Marshal(s)
			out = append(out, Line{Lane: journal.System, Kind: KindMCPFailed, Data: data,
				Text: clip(fmt.Sprintf("MCP server %q did not start (%s): the coder has none of its tools; `claude mcp get %s` shows why", s.Name, s.Status, s.Name))})
		}
	}
	return out
}

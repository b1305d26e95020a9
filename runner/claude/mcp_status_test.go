package claude

import (
	"strings"
	"testing"
)

// A server the session's init line reports as failed is a line of the
// run; a connected one is not.
func TestInitNamesAFailedMCPServer(t *testing.T) {
	lines := DecodeLine([]byte(`{"type":"system","subtype":"init","model":"m","mcp_servers":[{"name":"notes","status":"failed"},{"name":"web","status":"connected"}]}`))
	var got []string
	for _, l := range lines {
		got = append(got, string(l.Kind)+": "+l.Text)
	}
	if len(got) != 2 || !strings.HasPrefix(got[1], string(KindMCPFailed)+`: MCP server "notes" did not start (failed)`) {
		t.Fatalf("lines = %q", got)
	}
}

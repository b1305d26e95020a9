//go:build unix

package mcpserver

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A call the SDK refuses at its schema check (a number for a path) or as
// an unknown tool reaches no handler of Sentinel's, and left no audit line
// (31-ipatk15m): every tools/call is journaled, once.
func TestEveryCallIsAuditedEvenOneTheSDKRefuses(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs, srv := session(t, mustConfig(t, f.config("")), Options{})
	ctx := context.Background()
	cs.CallTool(ctx, &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"path": 12345}})
	cs.CallTool(ctx, &mcp.CallToolParams{Name: "no-such-tool", Arguments: map[string]any{}})
	cs.CallTool(ctx, &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"path": f.rw + "/notes.txt"}})
	var got []string
	for _, c := range auditCalls(t, srv) {
		got = append(got, c.Tool+" "+c.Decision+" "+string(c.Args))
	}
	if len(got) != 3 || !strings.HasPrefix(got[0], "read error") || !strings.Contains(got[0], "12345") ||
		!strings.HasPrefix(got[1], "no-such-tool error") || !strings.HasPrefix(got[2], "read allow") {
		t.Errorf("audit lines = %q, want the refused read, the unknown tool and the read, once each", got)
	}
}

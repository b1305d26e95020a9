package codex

import (
	"slices"
	"testing"

	"github.com/sentinelhq/sentinel/internal/agentutil"
)

// The person's stdio MCP servers start through the system shell in the
// run's config, so in place each enters a signal scope (Codex starts them
// directly, in its own Landlock domain, from which they could kill the
// hooks); a url server has nothing to start.
func TestTheRunsMCPServersStartThroughTheShell(t *testing.T) {
	p := personFrom(t, `[mcp_servers.s]
command = "srv"
args = ["--db", "x"]
[mcp_servers.web]
url = "https://mcp.example/"
`, "")
	pl, err := NewPlan(Provider{FromEnv: true, BaseURL: "http://m"}, p, "")
	if err != nil {
		t.Fatal(err)
	}
	servers := decoded(t, pl)["mcp_servers"].(map[string]any)
	s := servers["s"].(map[string]any)
	args, _ := agentutil.StringList(s["args"])
	if s["command"] != agentutil.ScopeShell || !slices.Equal(args, []string{"-c", agentutil.ScopeScript, "srv", "--db", "x"}) {
		t.Errorf("server s = %v, want srv --db x through %s", s, agentutil.ScopeShell)
	}
	if _, set := servers["web"].(map[string]any)["command"]; set {
		t.Errorf("the url server got a command: %v", servers["web"])
	}
}

//go:build unix

package claude

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/fakemodel"
)

// claudeWaitsForMCP is what a script running `claude -p` with sentinel mcp
// on a slow or busy machine sets (README: sentinel mcp): Claude Code
// 2.1.332 gives an MCP server a bounded time to answer at start (MCP_TIMEOUT,
// measured here to be under 45 s), then turns to the model without that
// server's tools ("No such tool available: mcp__sentinel__exec", issue 33).
const claudeWaitsForMCP = "MCP_TIMEOUT=120000"

// Claude's start-up bound with a server that answers late, made
// deterministic: the server starts only once the model has been asked (or,
// when Claude waits for it, after a bounded poll of 45 s, past Claude's
// default). With claudeWaitsForMCP the model's first turn may call
// mcp__sentinel__exec; without it that call came back "No such tool
// available". (Within the default bound Claude waits: a 20 s start passed
// without it.)
func TestRealClaudeWaitsForALateSentinelMCP(t *testing.T) {
	t.Parallel()
	e2etest.NeedClaude(t)
	f := newMCPFixture(t)
	model := e2etest.StartModel(t, fakemodel.Script{
		fakemodel.Reply(fakemodel.ToolUse("mcp__sentinel__exec", map[string]any{"command": "echo started"})),
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("Done.")}},
	})
	asked := filepath.Join(f.dir, "asked")
	// The late server: it polls (at most 45 s of wall clock, bash's
	// SECONDS, not a count of sleeps: at load 47, 450 rounds of `sleep 0.1`
	// took longer than Claude's 120 s bound) for the sign that the model
	// was asked before it starts, so a Claude that does not wait for it
	// always asks first.
	late := filepath.Join(f.dir, "late-mcp.sh")
	e2etest.WriteFile(t, late, `#!/bin/bash
SECONDS=0
while [ ! -e "$ASKED" ] && [ "$SECONDS" -lt 45 ]; do sleep 0.1; done
exec "$@"
`)
	if err := os.Chmod(late, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"sentinel": map[string]any{
		"type": "stdio", "command": late, "args": []string{e2etest.Bin, "mcp", "--config", f.config},
		"env": map[string]string{"ASKED": asked, "XDG_STATE_HOME": filepath.Join(f.dir, "state"), "XDG_CONFIG_HOME": filepath.Join(f.dir, "config")},
	}}})
	mcpJSON := filepath.Join(f.dir, "mcp.json")
	e2etest.WriteFile(t, mcpJSON, string(cfg))

	done := make(chan struct{})
	defer close(done)
	go func() { // the sign: the model got its first request
		for len(model.Requests()) == 0 {
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
		_ = os.WriteFile(asked, nil, 0o600)
	}()

	cmd := exec.Command("claude", "-p", "say started", "--output-format", "json", "--mcp-config", mcpJSON, "--strict-mcp-config",
		"--allowedTools", "mcp__sentinel__exec")
	cmd.Dir = f.rw
	cmd.Env = append(append(append(os.Environ(), f.env...), e2etest.ClaudeEnv(t, model)...), claudeWaitsForMCP)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("claude: %v\n%s", err, out)
	}
	var told []string
	for _, r := range model.Requests() {
		for _, tr := range r.LastToolResults() {
			told = append(told, tr.Content)
		}
	}
	if all := strings.Join(told, "\n---\n"); len(told) != 1 || !strings.Contains(all, "started") || !strings.Contains(all, "[exit 0]") {
		t.Fatalf("the first turn's mcp__sentinel__exec did not run; tool results:\n%s\nclaude said:\n%s", all, out)
	}
}

//go:build unix

package claude

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/fakemodel"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/mcpserver"
)

// The real Claude Code CLI, headless against the fake model, with sentinel
// mcp as its MCP server through --mcp-config: the model's exec, read and
// edit calls reach the server, the allowed ones happen, and the refused
// ones come back to the model as classified refusals.
func TestRealClaudeOverSentinelMCP(t *testing.T) {
	t.Parallel()
	e2etest.NeedClaude(t)
	f := newMCPFixture(t)
	model := e2etest.StartModel(t, fakemodel.Script{
		fakemodel.Reply(fakemodel.Text("Looking."), fakemodel.ToolUse("mcp__sentinel__exec", map[string]any{"command": "ls && echo listed"})),
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.ToolUse("mcp__sentinel__exec", map[string]any{"command": "ls | sh"})}},
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.ToolUse("mcp__sentinel__read", map[string]any{"path": f.rw + "/out/secret.txt"})}},
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.ToolUse("mcp__sentinel__read", map[string]any{"path": f.rw + "/notes.txt"})}},
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.ToolUse("mcp__sentinel__edit", map[string]any{"path": f.ro + "/app.log", "content": "wiped"})}},
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.ToolUse("mcp__sentinel__edit", map[string]any{"path": f.rw + "/notes.txt", "old_string": "hello world", "new_string": "hello claude"})}},
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("All done.")}},
	})
	// On a busy machine sentinel mcp may answer after Claude's default
	// start-up bound (TestRealClaudeWaitsForALateSentinelMCP).
	env := append(append([]string{}, f.env...), append(e2etest.ClaudeEnv(t, model), claudeWaitsForMCP)...)
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"sentinel": map[string]any{
		"type": "stdio", "command": e2etest.Bin, "args": []string{"mcp", "--config", f.config},
		"env": map[string]string{"XDG_STATE_HOME": filepath.Join(f.dir, "state"), "XDG_CONFIG_HOME": filepath.Join(f.dir, "config")},
	}}})
	mcpJSON := filepath.Join(f.dir, "mcp.json")
	e2etest.WriteFile(t, mcpJSON, string(cfg))

	cmd := exec.Command("claude", "-p", "tidy the notes", "--output-format", "json", "--mcp-config", mcpJSON, "--strict-mcp-config",
		"--allowedTools", "mcp__sentinel__exec,mcp__sentinel__read,mcp__sentinel__edit")
	cmd.Dir = f.rw
	cmd.Env = append(os.Environ(), env...)
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
	if len(told) < 6 {
		t.Fatalf("the model got %d tool results, want 6:\n%s\nclaude said:\n%s", len(told), strings.Join(told, "\n---\n"), out)
	}
	all := strings.Join(told, "\n---\n")
	for _, want := range []string{"notes.txt", "[exit 0]", "[policy-deny]", "[path-not-allowed]", "hello world", "[read-only-path]", "backup of the previous content: "} {
		if !strings.Contains(all, want) {
			t.Errorf("the model was not told %q; tool results:\n%s", want, all)
		}
	}
	if strings.Contains(all, "TOPSECRET") {
		t.Fatal("the secret reached the model")
	}
	if b, _ := os.ReadFile(f.rw + "/notes.txt"); string(b) != "hello claude\n" {
		t.Fatalf("notes.txt = %q", b)
	}
	if b, _ := os.ReadFile(f.ro + "/app.log"); string(b) != "boot ok\n" {
		t.Fatalf("an r path was written: %q", b)
	}
	evs, err := journal.ReadFile(f.audit)
	if err != nil {
		t.Fatal(err)
	}
	var decided []string
	for _, ev := range evs {
		if c, ok := mcpserver.AsCall(ev); ok {
			decided = append(decided, c.Tool+" "+c.Decision+" "+string(c.Class))
		}
	}
	if got := strings.Join(decided, "; "); got != "exec allow ; exec deny policy-deny; read deny path-not-allowed; read allow ; edit deny read-only-path; edit allow " {
		t.Fatalf("the audit says: %s", got)
	}
}

package geminicli

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/runner/acp"

	"github.com/sentinelhq/sentinel/approvals"
	fg "github.com/sentinelhq/sentinel/internal/fakegemini"
)

// pyMCP is a stdio MCP server with one tool, touch_marker, that creates the
// named file in its working directory.
const pyMCP = `
import json, sys, os
for line in sys.stdin:
    m = json.loads(line)
    if "id" not in m: continue
    meth = m.get("method")
    if meth == "initialize":
        r = {"protocolVersion": m["params"].get("protocolVersion", "2025-06-18"), "capabilities": {"tools": {}}, "serverInfo": {"name": "fake", "version": "1"}}
    elif meth == "tools/list":
        r = {"tools": [{"name": "touch_marker", "description": "Create a marker file.", "inputSchema": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}, "annotations": {"readOnlyHint": True}}]}
    elif meth == "tools/call":
        open(os.path.basename(m["params"]["arguments"]["name"]), "w").write("mcp\n")
        r = {"content": [{"type": "text", "text": "created"}]}
    else:
        print(json.dumps({"jsonrpc": "2.0", "id": m["id"], "error": {"code": -32601, "message": "no"}}), flush=True); continue
    print(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": r}), flush=True)
`

// A person's Gemini MCP server marked trust: true (whose tools Gemini runs
// without asking) comes along untrusted: its tool call is a permission
// request that reaches Sentinel, and denied, it does not run.
//
// Measured with 0.61.0: in an untrusted workspace Gemini starts no MCP
// server at all; a run trusts the workspace only with its .gemini/ hidden
// in the sandbox (acp_mcp.go, and TestRealGeminiAsksAboutThePersonsMCPServer in
// cmd/sentinel). This test trusts the workspace itself, without a sandbox,
// to check the settings rewrite alone keeps the call asking.
func TestACPPersonsTrustedMCPServerStillAsks(t *testing.T) {
	needGemini(t)
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 runs the test's MCP server")
	}
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	model, err := fg.Start(fg.Script{
		fg.Reply(fg.FunctionCall("mcp_fake_touch_marker", map[string]any{"name": "mcp-marker"})),
		{When: fg.AfterFunctionResponse, Items: []fg.Item{fg.Text("Done.")}},
		fg.Reply(fg.Text("Understood.")),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { model.Close() })
	home := t.TempDir()
	settings := map[string]any{}
	for k, v := range fg.Settings {
		settings[k] = v
	}
	settings["mcpServers"] = map[string]any{"fake": map[string]any{"command": "python3", "args": []string{"-c", pyMCP}, "cwd": ws, "trust": true}}
	b, _ := json.Marshal(settings)
	os.MkdirAll(filepath.Join(home, ".gemini"), 0o700)
	if err := os.WriteFile(filepath.Join(home, ".gemini", "settings.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	a, _ := acp.New([]string{"gemini", "--acp"}, &acpGuest)
	state := filepath.Join(t.TempDir(), "agent")
	if _, err := a.Prepare(home, state, "where"); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("gemini", "--acp")
	cmd.Dir = ws
	cmd.Env = append(os.Environ(), "HTTP_PROXY=", "HTTPS_PROXY=", "http_proxy=", "https_proxy=", "ALL_PROXY=", "all_proxy=",
		"GOOGLE_API_KEY=", "GOOGLE_GENAI_USE_VERTEXAI=", "GOOGLE_CLOUD_PROJECT=", "CI=")
	cmd.Env = append(append(cmd.Env, model.Env(state)...), a.Env()...)
	cmd.Env = append(cmd.Env, "GEMINI_CLI_TRUST_WORKSPACE=true")
	var mu sync.Mutex
	var asked []approvals.Request
	var stderr strings.Builder
	s, err := acp.Start(context.Background(), cmd, acp.Config{Task: "touch it", Workspace: ws, NoReadDelegation: true, Agent: "gemini",
		Stderr: writerFunc(func(p []byte) { mu.Lock(); stderr.Write(p); mu.Unlock() }),
		Ask: func(_ context.Context, req approvals.Request) approvals.Decision {
			mu.Lock()
			asked = append(asked, req)
			mu.Unlock()
			return approvals.Decision{Outcome: approvals.OutcomeDeny, By: "test", Reason: "denied by the test"}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan int, 1)
	go func() { done <- s.Wait() }()
	select {
	case <-done:
	case <-time.After(3 * time.Minute):
		s.Stop(2 * time.Second)
		t.Fatal("gemini did not finish")
	}
	if !model.Requests()[0].HasTool("mcp_fake_touch_marker") {
		t.Fatalf("gemini did not offer the person's MCP tool\n%s", stderr.String())
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 1 || !strings.Contains(asked[0].Tool, "touch_marker") {
		t.Errorf("permission requests = %+v, want one for the MCP tool", asked)
	}
	if _, err := os.Stat(filepath.Join(ws, "mcp-marker")); err == nil {
		t.Error("the MCP tool ran though Sentinel denied it")
	}
}

type writerFunc func([]byte)

func (w writerFunc) Write(p []byte) (int, error) { w(p); return len(p), nil }

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// doctor starts each of the person's MCP servers inside the coder's
// sandbox: one whose script lives in the home answers initialize there,
// and one that fails to start is a line with its own error.
func TestDoctorNamesAnMCPServerThatFailsToStart(t *testing.T) {
	home := t.TempDir()
	project := t.TempDir()
	t.Setenv("HOME", home)
	tools := filepath.Join(home, "tools")
	if err := os.MkdirAll(tools, 0o755); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(tools, "notes_mcp.sh")
	bad := filepath.Join(tools, "broken_mcp.sh")
	os.WriteFile(good, []byte("read line\necho '{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-06-18\"}}'\nread rest\n"), 0o644)
	os.WriteFile(bad, []byte("echo 'ModuleNotFoundError: No module named mcp' >&2\nexit 3\n"), 0o644)
	cfg := map[string]any{
		"mcpServers": map[string]any{
			"notes": map[string]any{"command": "sh", "args": []string{good}},
			"web":   map[string]any{"type": "http", "url": "http://127.0.0.1:1/mcp"},
		},
		"projects": map[string]any{project: map[string]any{"mcpServers": map[string]any{
			"broken": map[string]any{"command": "sh", "args": []string{bad}, "env": map[string]string{"TOKEN": "x"}},
		}}},
	}
	os.MkdirAll(filepath.Join(home, ".codex"), 0o755)
	os.WriteFile(filepath.Join(home, ".codex", "config.toml"), []byte("[mcp_servers.codexnotes]\ncommand = \"sh\"\nargs = [\""+good+"\"]\n"), 0o600)
	b, _ := json.Marshal(cfg)
	if err := os.WriteFile(filepath.Join(home, ".claude.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	res := e2etest.Sentinel(t, project, []string{"HOME=" + home, "XDG_STATE_HOME=" + t.TempDir()}, "doctor", "--json")
	var rep doctorReport
	if err := json.Unmarshal([]byte(res.Stdout), &rep); err != nil {
		t.Fatalf("doctor --json (exit %d): %v\n%s\n%s", res.Code, err, res.Stdout, res.Stderr)
	}
	probes := rep.MCP
	if len(probes) != 3 {
		t.Fatalf("probed %d servers, want the three stdio ones: %+v", len(probes), probes)
	}
	byName := map[string]mcpProbe{}
	for _, p := range probes {
		byName[p.Name] = p
	}
	if p := byName["codexnotes"]; !p.OK || p.Agent != "codex" {
		t.Errorf("the person's Codex server did not start inside: %+v", p)
	}
	if p := byName["notes"]; !p.OK {
		t.Errorf("the server whose script is in the home did not start inside: %+v", p)
	}
	if p := byName["broken"]; p.OK || !strings.Contains(p.Error, "No module named mcp") || p.Scope != "project" {
		t.Errorf("the broken server: %+v, want a failure with its own error", p)
	}
	var out strings.Builder
	printMCP(&out, probes)
	if !strings.Contains(out.String(), "FAILED   claude broken (project)") || !strings.Contains(out.String(), "ok       claude notes (user)") {
		t.Errorf("doctor's lines:\n%s", out.String())
	}
}

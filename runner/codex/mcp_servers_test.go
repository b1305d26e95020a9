package codex

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A person's Codex MCP server whose script lives in the home starts
// inside: the run's sandbox makes the script's directory readable (not the
// whole home), and the server's env stays out of the paths.
func TestPersonsMCPServerScriptIsReadableInside(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	person := filepath.Join(home, ".codex")
	tools := filepath.Join(home, "tools")
	os.MkdirAll(person, 0o755)
	os.MkdirAll(tools, 0o755)
	script := filepath.Join(tools, "notes_mcp.py")
	os.WriteFile(script, []byte("print()\n"), 0o644)
	os.WriteFile(filepath.Join(person, "config.toml"), []byte(`[mcp_servers.notes]
command = "sh"
args = ["~/tools/notes_mcp.py"]
env = { NOTES_TOKEN = "secret" }
[mcp_servers.web]
url = "http://127.0.0.1:1/mcp"
`), 0o600)
	a := New(Options{})
	needs, err := a.Prepare(RunPaths{Workspace: t.TempDir(), StateDir: t.TempDir(), PersonDir: person})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(needs.Readable, tools) {
		t.Fatalf("readable inside = %q, want the script's directory %s", needs.Readable, tools)
	}
	if slices.Contains(needs.Readable, home) {
		t.Fatalf("the whole home is readable: %q", needs.Readable)
	}
	p, _ := LoadPerson(person)
	if s := p.MCPServers(); len(s) != 1 || s[0].Name != "notes" || s[0].Env["NOTES_TOKEN"] != "secret" {
		t.Fatalf("servers = %+v", s)
	}
}

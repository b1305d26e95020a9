package claude

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A person's MCP server started from a script in their home
// (`python3 /home/u/tools/notes_mcp.py`) can start inside: the script's
// directory and the server's program are made readable, the home itself
// never is, and an http server or a missing file adds nothing.
func TestMCPServerPathsNameTheServersFiles(t *testing.T) {
	home := t.TempDir()
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	tools := filepath.Join(home, "tools")
	mustWrite(t, filepath.Join(tools, "notes_mcp.py"), "print()\n")
	mustWrite(t, filepath.Join(home, "bin", "srv"), "#!/bin/sh\n")
	mustWrite(t, filepath.Join(home, "top.py"), "print()\n")
	project := "/work/proj"
	mustWrite(t, filepath.Join(home, ".claude.json"), `{"mcpServers": {
	  "notes": {"command": "sh", "args": ["`+filepath.Join(tools, "notes_mcp.py")+`"], "env": {"TOKEN": "s3cret"}},
	  "web": {"type": "http", "url": "http://127.0.0.1:9/mcp"},
	  "gone": {"command": "/nowhere/srv", "args": ["/nowhere/x.py"]}},
	 "projects": {"/work/proj": {"mcpServers": {"bin": {"command": "~/bin/srv", "args": ["`+filepath.Join(home, "top.py")+`"]}}}}}`)
	got := mcpServerPaths(home, project)
	for _, want := range []string{tools, filepath.Join(home, "bin"), filepath.Join(home, "top.py")} {
		if !slices.Contains(got, want) {
			t.Errorf("mcpServerPaths = %q, lacks %s", got, want)
		}
	}
	for _, p := range got {
		if p == home || p == "/nowhere" || filepath.Dir(p) == "/nowhere" {
			t.Errorf("mcpServerPaths names %s", p)
		}
	}
}

func mustWrite(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
}

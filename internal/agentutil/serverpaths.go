package agentutil

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ServerPaths are the places a stdio MCP server started as command args
// needs readable inside the sandbox: its program, resolved on PATH and
// through links, and each argument that names a file (`python3
// ~/tools/notes_mcp.py`), as its directory for the modules beside it
// unless that directory is the home itself (then the file alone). Only
// paths: the server's env (its tokens) is not read here, and the
// sandbox's hidden places still win.
func ServerPaths(home, command string, args []string) []string {
	var out []string
	file := func(p string) {
		if strings.HasPrefix(p, "~/") {
			p = filepath.Join(home, p[2:])
		}
		if !filepath.IsAbs(p) {
			return
		}
		st, err := os.Stat(p)
		if err != nil || st.IsDir() {
			return
		}
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		if dir := filepath.Dir(p); dir != filepath.Clean(home) && dir != "/" {
			out = append(out, dir)
		} else {
			out = append(out, p)
		}
	}
	if command == "" {
		return nil // an http or sse server: nothing to start
	}
	if !strings.Contains(command, "/") {
		if p, err := exec.LookPath(command); err == nil {
			command = p
		}
	}
	file(command)
	for _, a := range args {
		file(a)
	}
	return out
}

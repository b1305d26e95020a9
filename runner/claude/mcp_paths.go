package claude

import (
	"github.com/sentinelhq/sentinel/internal/agentutil"
)

// mcpServerPaths are the places the person's stdio MCP servers (user-level
// and their entry for the real project in ~/.claude.json) need to start
// inside the sandbox: each server's program, resolved through links, and
// each argument that names a file (`python3 /home/u/tools/notes_mcp.py`),
// with its directory for the modules beside it, unless that directory is
// the home itself. Only paths: a server's env and headers (its tokens)
// stay in the per-run config, and the sandbox's hidden places still win.
func mcpServerPaths(home, project string) []string {
	cfg, err := readSettings(ConfigFile(home))
	if err != nil {
		return nil
	}
	var servers []map[string]any
	add := func(m any) {
		if ms, ok := m.(map[string]any); ok {
			for _, s := range ms {
				if sm, ok := s.(map[string]any); ok {
					servers = append(servers, sm)
				}
			}
		}
	}
	add(cfg["mcpServers"])
	if projects, ok := cfg["projects"].(map[string]any); ok && project != "" {
		if proj, ok := projects[project].(map[string]any); ok {
			add(proj["mcpServers"])
		}
	}
	var out []string
	for _, s := range servers {
		cmd, _ := s["command"].(string)
		var args []string
		as, _ := s["args"].([]any)
		for _, a := range as {
			if a, ok := a.(string); ok {
				args = append(args, a)
			}
		}
		out = append(out, agentutil.ServerPaths(home, cmd, args)...)
	}
	return out
}

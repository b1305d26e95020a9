package claude

import (
	"sort"

	"github.com/sentinelhq/sentinel/runner/coder"
)

// MCPServer is one of the person's stdio MCP servers for Claude Code, as
// ~/.claude.json names it (its env may hold tokens: it is only ever given
// to the server it belongs to).
type MCPServer = coder.MCPServer

// PersonMCPServers are the person's stdio MCP servers that a run for
// project starts (user level, then the project's entry), each scope
// sorted by name; http and sse servers have nothing to start.
func PersonMCPServers(home, project string) []MCPServer {
	cfg, err := readSettings(ConfigFile(home))
	if err != nil {
		return nil
	}
	var out []MCPServer
	add := func(scope string, m any) {
		ms, _ := m.(map[string]any)
		names := make([]string, 0, len(ms))
		for n := range ms {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			s, _ := ms[n].(map[string]any)
			cmd, _ := s["command"].(string)
			if cmd == "" {
				continue
			}
			srv := MCPServer{Name: n, Scope: scope, Command: cmd, Env: map[string]string{}}
			args, _ := s["args"].([]any)
			for _, a := range args {
				if as, ok := a.(string); ok {
					srv.Args = append(srv.Args, as)
				}
			}
			env, _ := s["env"].(map[string]any)
			for k, v := range env {
				if vs, ok := v.(string); ok {
					srv.Env[k] = vs
				}
			}
			out = append(out, srv)
		}
	}
	add("user", cfg["mcpServers"])
	if projects, ok := cfg["projects"].(map[string]any); ok && project != "" {
		if proj, ok := projects[project].(map[string]any); ok {
			add("project", proj["mcpServers"])
		}
	}
	return out
}

// MCPServerPaths are the places the person's stdio MCP servers need
// readable inside the sandbox (mcpServerPaths), for `sentinel doctor`'s
// trial start of each.
func MCPServerPaths(home, project string) []string { return mcpServerPaths(home, project) }

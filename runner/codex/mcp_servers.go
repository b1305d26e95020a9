package codex

import (
	"sort"

	"github.com/sentinelhq/sentinel/internal/agentutil"
)

// MCPServer is one of the person's stdio MCP servers in their config.toml
// ([mcp_servers.<name>] with a command); its env may hold tokens and is
// only ever given to the server it belongs to.
type MCPServer struct {
	Name    string
	Command string
	Args    []string
	Env     map[string]string
}

// MCPServers are the person's stdio MCP servers, sorted by name; url
// (streamable http) servers have nothing to start.
func (p *Person) MCPServers() []MCPServer {
	if p == nil {
		return nil
	}
	servers := p.table("mcp_servers")
	names := make([]string, 0, len(servers))
	for n := range servers {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []MCPServer
	for _, n := range names {
		t, _ := servers[n].(map[string]any)
		cmd, _ := t["command"].(string)
		if cmd == "" {
			continue
		}
		s := MCPServer{Name: n, Command: cmd, Env: map[string]string{}}
		args, _ := t["args"].([]any)
		for _, a := range args {
			if as, ok := a.(string); ok {
				s.Args = append(s.Args, as)
			}
		}
		env, _ := t["env"].(map[string]any)
		for k, v := range env {
			if vs, ok := v.(string); ok {
				s.Env[k] = vs
			}
		}
		out = append(out, s)
	}
	return out
}

// MCPServerPaths are the places the person's stdio MCP servers need
// readable inside the sandbox to start (agentutil.ServerPaths): a server
// whose script lives in the home (`python3 ~/tools/notes_mcp.py`) would
// otherwise fail inside, silently.
func (p *Person) MCPServerPaths(home string) []string {
	var out []string
	for _, s := range p.MCPServers() {
		out = append(out, agentutil.ServerPaths(home, s.Command, s.Args)...)
	}
	return out
}

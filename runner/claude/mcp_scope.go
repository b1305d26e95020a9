package claude

import (
	"fmt"

	"github.com/sentinelhq/sentinel/internal/agentutil"
)

// scopeMCPServers makes each stdio MCP server in the run's copy of the
// person's state file (path: the user's mcpServers and each project's)
// start through the system shell, so that in place it enters a signal
// scope of its own (agentutil.ScopeCommandServers): Claude Code starts
// its servers directly, in its own Landlock domain, from which a server
// could stop or kill the hooks. The person's own file is not touched.
func scopeMCPServers(path string) error {
	cfg, err := readSettings(path)
	if err != nil || cfg == nil {
		return err
	}
	n := 0
	if user, ok := cfg["mcpServers"].(map[string]any); ok {
		n += agentutil.ScopeCommandServers(user)
	}
	if projects, ok := cfg["projects"].(map[string]any); ok {
		for _, p := range projects {
			if proj, ok := p.(map[string]any); ok {
				if ps, ok := proj["mcpServers"].(map[string]any); ok {
					n += agentutil.ScopeCommandServers(ps)
				}
			}
		}
	}
	if n == 0 {
		return nil
	}
	if err := writeJSON(path, cfg); err != nil {
		return fmt.Errorf("write claude's state with its MCP servers scoped: %w", err)
	}
	return nil
}

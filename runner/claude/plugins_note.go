package claude

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The person's own Claude Code plugins (~/.claude/plugins: installed
// marketplaces and plugins, enabledPlugins in their settings.json) are not
// loaded in a run: the run's config dir starts with none of them
// (personalEntries), enabledPlugins is not a kept setting, and the managed
// policy lets no marketplace be added (strictKnownMarketplaces: []). A
// plugin brings MCP servers, hooks and language servers that Claude Code
// starts itself, in its own Landlock domain, outside the scope each
// agent-started process gets (from there a server could kill the hooks),
// and their commands are the plugin's own code, so refusing them is the
// choice over rewriting them as managed-mcp.json is (that file only names
// commands). Until now that happened silently; pluginsNote says so.

// pluginsNote is the run's line naming the person's plugins that a run
// does not load ("" when they have none).
func pluginsNote(personal string) string {
	var names []string
	if b, err := os.ReadFile(filepath.Join(personal, "plugins", "installed_plugins.json")); err == nil {
		var f struct {
			Plugins map[string]json.RawMessage `json:"plugins"`
		}
		if json.Unmarshal(b, &f) == nil {
			for k := range f.Plugins {
				names = append(names, k)
			}
		}
	}
	if s, err := readSettings(filepath.Join(personal, "settings.json")); err == nil {
		if on, ok := s["enabledPlugins"].(map[string]any); ok {
			for k, v := range on {
				if v == true && !slices.Contains(names, k) {
					names = append(names, k)
				}
			}
		}
	}
	if len(names) == 0 {
		return ""
	}
	slices.Sort(names)
	shown := names
	if len(shown) > 5 {
		shown = append(slices.Clone(shown[:5]), "…")
	}
	return "claude: your Claude Code plugins (" + strings.Join(shown, ", ") + ") are not loaded in this run: " +
		"their MCP servers and hooks would start outside the sandbox's scope for the agent's processes; " +
		"an MCP server you need can go in your settings' mcpServers, which runs start through the sandbox's shell"
}

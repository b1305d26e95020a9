package claude

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sentinelhq/sentinel/internal/agentutil"
	"github.com/sentinelhq/sentinel/internal/hardgit"
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
	return scopeServersIn(path, cfg, 0)
}

// scopeServersIn scopes the servers of cfg (the run's state file at path)
// and writes it when it changed anything (n: changed before).
func scopeServersIn(path string, cfg map[string]any, n int) error {
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

// scopeProjectServers is the same for the project's .mcp.json servers
// (in the workspace, the person's own file in place, which Claude Code
// reads and starts directly once approved): each server the person
// approved (enabledMcpjsonServers or enableAllProjectMcpServers in their
// settings, the project's settings.local.json or the run's state file;
// never the repository's own .claude/settings.json, nor a settings.local.json
// the repository commits: committedLocalSettings) is given to the
// workspace's entry in the run's state file (path) as a local server of
// the same name, through the shell — a local server outranks the project's
// of its name — and every name in .mcp.json is returned, for the managed
// policy's disabledMcpjsonServers: Claude Code starts none of them as the
// file has it, and one the person has not approved is not offered.
func scopeProjectServers(path, workspace, personSettings string) ([]string, error) {
	proj, err := readSettings(filepath.Join(workspace, ".mcp.json"))
	if err != nil {
		return nil, err
	}
	servers, _ := proj["mcpServers"].(map[string]any)
	if len(servers) == 0 {
		return nil, nil
	}
	cfg, err := readSettings(path)
	if err != nil {
		return nil, err
	}
	projects, _ := cfg["projects"].(map[string]any)
	if projects == nil {
		projects = map[string]any{}
		cfg["projects"] = projects
	}
	entry, _ := projects[workspace].(map[string]any)
	if entry == nil {
		entry = map[string]any{}
		projects[workspace] = entry
	}
	all, approved := false, []string{}
	sources := []map[string]any{entry}
	files := []string{personSettings}
	if !committedLocalSettings(workspace) {
		files = append(files, filepath.Join(workspace, ".claude", "settings.local.json"))
	}
	for _, f := range files {
		if m, err := readSettings(f); err == nil {
			sources = append(sources, m)
		}
	}
	for _, m := range sources {
		all = all || m["enableAllProjectMcpServers"] == true
		if l, ok := agentutil.StringList(m["enabledMcpjsonServers"]); ok {
			approved = append(approved, l...)
		}
	}
	local, _ := entry["mcpServers"].(map[string]any)
	if local == nil {
		local = map[string]any{}
	}
	names := agentutil.SortedKeys(servers)
	for _, name := range names {
		s, ok := servers[name].(map[string]any)
		if _, taken := local[name]; !ok || taken || !(all || slices.Contains(approved, name)) {
			continue
		}
		local[name] = s
	}
	if len(local) > 0 {
		entry["mcpServers"] = local
	}
	return names, scopeServersIn(path, cfg, 1)
}

// committedLocalSettings reports whether the workspace's
// .claude/settings.local.json is the repository's rather than the
// person's: git tracks it (a repository can commit one with
// enableAllProjectMcpServers, and Sentinel would then start every
// .mcp.json server with no dialog; review #31 LOW 8). When git cannot
// tell for another reason than the place being no repository, the file
// is taken as the repository's (its approvals do not count). Outside a
// repository the file is taken as the person's: where it came from is
// not known.
func committedLocalSettings(workspace string) bool {
	out, err := hardgit.Git{Dir: workspace}.Run(context.Background(), "ls-files", "-z", "--", ".claude/settings.local.json")
	if err != nil {
		return !strings.Contains(err.Error(), "not a git repository")
	}
	return out != ""
}

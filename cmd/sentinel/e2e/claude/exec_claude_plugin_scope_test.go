//go:build unix

package claude

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/fakemodel"
)

// A repository's .claude/settings.json that names a plugin marketplace in
// the repository (a directory) and enables its plugin, whose MCP server is
// mcpHookKiller: outside Sentinel, Claude Code 2.1.332 registers it at
// start in a trusted folder, with no dialog, and starts the server
// directly. In place the managed policy adds no marketplace
// (strictKnownMarketplaces empty): the server never starts, the card for
// the asked call stays up and the person's deny holds.
func TestExecClaudeRepositoryPluginStartsNoServer(t *testing.T) {
	t.Parallel()
	e2etest.NeedClaude(t)
	dir := e2etest.ScriptRepo(t)
	log := filepath.Join(dir, "watch.log")
	const asked = `eval "echo ran > bypassed.txt"` // the policy asks about eval
	model := e2etest.StartModel(t, fakemodel.Script{
		fakemodel.Reply(fakemodel.Bash(asked)),
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("All done.")}},
	})
	env := append(e2etest.ClaudeEnv(t, model), "XDG_CONFIG_HOME="+t.TempDir(), "SHELL=/bin/bash")
	mp := filepath.Join(dir, "mp")
	e2etest.WriteFile(t, filepath.Join(mp, ".claude-plugin", "marketplace.json"),
		`{"name": "x", "owner": {"name": "a"}, "plugins": [{"name": "p", "source": "./p", "description": "probe"}]}`)
	e2etest.WriteFile(t, filepath.Join(mp, "p", ".claude-plugin", "plugin.json"), `{"name": "p", "version": "1.0.0", "description": "probe"}`)
	e2etest.WriteFile(t, filepath.Join(mp, "p", ".mcp.json"), e2etest.JSONOf(map[string]any{
		"mcpServers": map[string]any{"watch": map[string]any{"command": "/usr/bin/perl", "args": []string{"-e", mcpHookKiller, log}}},
	}))
	e2etest.WriteFile(t, filepath.Join(dir, ".claude", "settings.json"), e2etest.JSONOf(map[string]any{
		"extraKnownMarketplaces": map[string]any{"x": map[string]any{"source": map[string]any{"source": "directory", "path": mp}}},
		"enabledPlugins":         map[string]any{"p@x": true},
	}))
	tm := e2etest.StartSentinel(t, dir, env, "exec", "--allow-host", e2etest.ModelHost(model), "--", "claude", "Write the file.")
	cardUp := e2etest.Has(asked, "[a] approve once")
	gone := func(s string) bool {
		return strings.Contains(s, "run failed") || strings.Contains(s, "Do you want to proceed?") || strings.Contains(s, "All done.")
	}
	s := tm.WaitFor("the card for "+asked+" (or the run failed, or Claude's own dialog)", func(s string) bool { return cardUp(s) || gone(s) })
	if !cardUp(s) {
		b, _ := os.ReadFile(log)
		t.Fatalf("the card for %q never came up (watch.log %q)\n%s", asked, b, s)
	}
	tm.Keys("d")
	tm.WaitFor("the deny message prompt", e2etest.Has("message for the coder"))
	tm.TypeText("not this one")
	tm.Keys("Enter")
	tm.WaitRequests(model, 2)
	if _, err := os.Stat(filepath.Join(dir, "bypassed.txt")); err == nil {
		t.Errorf("bypassed.txt exists: Claude ran the refused call")
	}
	// The server starts with Claude Code, long before the asked call: no
	// log by now means it never ran.
	if b, err := os.ReadFile(log); err == nil {
		t.Errorf("the repository's plugin server ran: watch.log %q", b)
	}
}

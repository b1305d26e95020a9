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

// In place, a server of the project's .mcp.json that the person approved
// (enabledMcpjsonServers in their settings) cannot signal the hooks: the
// run starts it through the shell as a local server of the same name, and
// the managed policy keeps Claude Code from starting the file's own entry.
// A session of its own: with a project server in the run, the rewrite of
// the project's servers also puts the person's own servers through the
// shell, so TestExecClaudeSessionHooksHold's MCPServerCannotReachTheHooks
// (the person's ~/.claude.json) would no longer fail without its own
// rewrite (seen: it passed with scopeMCPServers taken out).
func TestExecClaudeProjectMCPServerCannotReachTheHooks(t *testing.T) {
	t.Parallel()
	claudeMCPKillerRun(t, true)
}

// claudeMCPKillerRun runs mcpHookKiller as the person's server (in their
// ~/.claude.json) or, with project, as an approved server of the
// project's .mcp.json, and an asked call the person denies.
func claudeMCPKillerRun(t *testing.T, project bool) {
	e2etest.NeedClaude(t)
	dir := e2etest.ScriptRepo(t)
	log := filepath.Join(dir, "watch.log")
	const asked = `eval "echo ran > bypassed.txt"` // the policy asks about eval
	model := e2etest.StartModel(t, fakemodel.Script{
		fakemodel.Reply(fakemodel.Bash(asked)),
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("All done.")}},
	})
	env := append(e2etest.ClaudeEnv(t, model), "XDG_CONFIG_HOME="+t.TempDir(), "SHELL=/bin/bash")
	var home string
	for _, kv := range env {
		if h, ok := strings.CutPrefix(kv, "HOME="); ok {
			home = h
		}
	}
	servers := e2etest.JSONOf(map[string]any{
		"mcpServers": map[string]any{"watch": map[string]any{"type": "stdio", "command": "/usr/bin/perl", "args": []string{"-e", mcpHookKiller, log}}},
	})
	if project {
		e2etest.WriteFile(t, filepath.Join(dir, ".mcp.json"), servers)
		e2etest.WriteFile(t, filepath.Join(home, ".claude", "settings.json"), `{`+e2etest.ClaudeStill+`"enabledMcpjsonServers": ["watch"]}`)
	} else {
		e2etest.WriteFile(t, filepath.Join(home, ".claude.json"), servers)
	}
	tm := e2etest.StartSentinel(t, dir, env, "exec", "--allow-host", e2etest.ModelHost(model), "--", "claude", "Write the file.")
	cardUp := e2etest.Has(asked, "[a] approve once")
	gone := func(s string) bool {
		return strings.Contains(s, "run failed") || strings.Contains(s, "Do you want to proceed?") || strings.Contains(s, "All done.")
	}
	s := tm.WaitFor("the card for "+asked+" (or the run failed, or Claude's own dialog)", func(s string) bool { return cardUp(s) || gone(s) })
	if !cardUp(s) {
		t.Fatalf("the card for %q never came up\n%s", asked, s)
	}
	watched := func() string { b, _ := os.ReadFile(log); return string(b) }
	e2etest.Eventually(t, "the server's watcher to find the hook", func() bool {
		return strings.Contains(watched(), "refused") || strings.Contains(watched(), "reached")
	}, func() string { return "watch.log " + watched() + "\n" + tm.Screen() })
	if w := watched(); strings.Contains(w, "reached") || !strings.Contains(w, "Operation not permitted") {
		t.Errorf("watch.log = %q: the MCP server's kill of the hook was not refused", w)
	}
	if s := tm.Screen(); !cardUp(s) || gone(s) {
		t.Fatalf("the card for %q went away while the server's watcher ran\n%s", asked, s)
	}
	const denyMsg = "not this one"
	tm.Keys("d")
	tm.WaitFor("the deny message prompt", e2etest.Has("message for the coder"))
	tm.TypeText(denyMsg)
	tm.Keys("Enter")
	tm.WaitRequests(model, 2)
	if _, err := os.Stat(filepath.Join(dir, "bypassed.txt")); err == nil {
		t.Errorf("bypassed.txt exists: Claude ran the refused call")
	}
}

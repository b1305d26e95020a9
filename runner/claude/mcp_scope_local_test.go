package claude

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// A .claude/settings.local.json the repository commits is the
// repository's: its enableAllProjectMcpServers approves nothing, so the
// .mcp.json servers stay unoffered (review #31 LOW 8). The same file
// untracked is the person's and still approves.
func TestACommittedLocalSettingsApprovesNoServer(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	for _, commit := range []bool{true, false} {
		ws := t.TempDir()
		put(t, filepath.Join(ws, ".mcp.json"), `{"mcpServers": {"evil": {"command": "node", "args": ["evil.js"]}}}`)
		put(t, filepath.Join(ws, ".claude", "settings.local.json"), `{"enableAllProjectMcpServers": true}`)
		git := func(args ...string) {
			cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
			cmd.Dir = ws
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v: %s", args, err, out)
			}
		}
		git("init", "-q")
		if commit {
			git("add", ".claude/settings.local.json")
			git("commit", "-qm", "x")
		}
		state := filepath.Join(t.TempDir(), ".claude.json")
		put(t, state, `{}`)
		if _, err := scopeProjectServers(state, ws, filepath.Join(t.TempDir(), "none.json")); err != nil {
			t.Fatal(err)
		}
		cfg, err := readSettings(state)
		if err != nil {
			t.Fatal(err)
		}
		entry, _ := cfg["projects"].(map[string]any)[ws].(map[string]any)
		local, _ := entry["mcpServers"].(map[string]any)
		if _, offered := local["evil"]; offered == commit {
			t.Errorf("committed=%v: the server offered=%v, want %v", commit, offered, !commit)
		}
	}
}

package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/runner/claude"
)

// `sentinel sandbox run --agent claude` keeps the session Claude Code
// writes in its per-run home, in the person's ~/.claude, for the next
// `claude --continue` (31.7); its settings stay the run's own.
func TestSandboxRunAgentKeepsItsHistory(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	env := []string{"HOME=" + home, "XDG_STATE_HOME=" + t.TempDir(), "XDG_CACHE_HOME=" + filepath.Join(home, ".cache"), "CLAUDE_CONFIG_DIR="}
	script := `key=$(printf %s "$PWD" | tr -c 'a-zA-Z0-9' '-'); mkdir -p ~/.claude/projects/$key && echo '{"sessionId":"s"}' > ~/.claude/projects/$key/s.jsonl; echo '{"x":1}' > ~/.claude/settings.json`
	res := e2etest.Sentinel(t, ws, env, "sandbox", "run", "--workspace", ws, "--agent", "claude", "--", "sh", "-c", script)
	if res.Code != 0 {
		t.Fatalf("exit %d\n%s\n%s", res.Code, res.Stdout, res.Stderr)
	}
	if _, err := os.Stat(filepath.Join(home, ".claude", "projects", claude.ProjectKey(ws), "s.jsonl")); err != nil {
		t.Errorf("the session was not kept: %v", err)
	}
	if _, err := os.Stat(filepath.Join(home, ".claude", "settings.json")); err == nil {
		t.Error("the run's settings.json reached ~/.claude")
	}
}

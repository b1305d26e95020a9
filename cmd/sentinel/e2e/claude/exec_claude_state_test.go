//go:build unix

package claude

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/fakemodel"
)

// In place, the commands Claude Code starts cannot write its state (the
// shell wrapper's domain grants no write there): a project script that
// tries to plant a transcript is refused every way, nothing of it comes
// back into the person's ~/.claude, and the session Claude Code itself
// wrote does come back: the person's own `claude --continue` afterwards,
// outside Sentinel, resumes it. Seen failing without the write rule set
// (the wrapper's domain scoping signals only): every plant was written and
// planted-*.jsonl came back into ~/.claude/projects.
func TestExecClaudeCommandsCannotWriteItsTranscripts(t *testing.T) {
	t.Parallel()
	e2etest.NeedClaude(t)
	dir := e2etest.ScriptRepo(t)
	key := regexp.MustCompile(`[^a-zA-Z0-9]`).ReplaceAllString(dir, "-")
	e2etest.WriteFile(t, filepath.Join(dir, "plant.sh"), e2etest.PlantScript("CLAUDE_CONFIG_DIR", `$S/projects/`+key))
	model := e2etest.StartModel(t, fakemodel.Script{
		fakemodel.Reply(fakemodel.Bash("sh plant.sh")),
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("First session done.")}},
	})
	// The agent's state must lie outside /tmp (the sandbox's own /tmp is
	// a writable root and would hold it): the cache dir elsewhere.
	cache, err := os.MkdirTemp("/var/tmp", "sentinel-e2e-cache-")
	if err != nil {
		t.Skipf("no cache dir outside /tmp: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(cache) })
	env := append(e2etest.ClaudeEnv(t, model), "XDG_CONFIG_HOME="+t.TempDir(), "XDG_CACHE_HOME="+cache, "SHELL=/bin/bash")
	home := strings.TrimPrefix(env[0], "HOME=")
	res := e2etest.Sentinel(t, dir, env, "exec", "--plain", "--allow-host", e2etest.ModelHost(model), "--", "claude", "-p", "Plant it.")
	if res.Code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout:\n%s", res.Code, res.Stderr, res.Stdout)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "plant.log"))
	errs, _ := os.ReadFile(filepath.Join(dir, "plant.err"))
	for _, how := range []string{"append", "new", "python", "hardlink", "rename", "mv", "swap"} {
		if !strings.Contains(string(log), how+"=refused") {
			t.Errorf("the %s plant was not refused:\n%s\n%s", how, log, errs)
		}
	}
	if !strings.Contains(string(errs), "Permission denied") {
		t.Errorf("no refusal read EACCES:\n%s", errs)
	}
	projects := filepath.Join(home, ".claude", "projects", key)
	sessions, _ := filepath.Glob(filepath.Join(projects, "*.jsonl"))
	if len(sessions) == 0 {
		t.Fatalf("no session came back into %s\n%s", projects, res.Stdout)
	}
	filepath.Walk(filepath.Join(home, ".claude"), func(p string, fi os.FileInfo, _ error) error {
		if fi == nil || fi.IsDir() {
			return nil
		}
		if strings.Contains(filepath.Base(p), "planted") {
			t.Errorf("%s came back into the person's ~/.claude", p)
		} else if b, _ := os.ReadFile(p); strings.Contains(string(b), "PLANTED\n") || strings.Contains(string(b), `"content":"PLANTED"`) {
			t.Errorf("%s came back with the plant in it", p)
		}
		return nil
	})
	// The person's own claude, outside Sentinel, continues the session.
	again := e2etest.StartModel(t, fakemodel.Script{fakemodel.Reply(fakemodel.Text("Continued."))})
	cmd := exec.Command("claude", "--continue", "-p", "And then?")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), e2etest.ClaudeEnv(t, again)...)
	cmd.Env = append(cmd.Env, "HOME="+home)
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "Continued.") {
		t.Fatalf("claude --continue: %v\n%s", err, out)
	}
	reqs := again.Requests()
	if len(reqs) == 0 || !reqs[len(reqs)-1].Contains("Plant it.") || !reqs[len(reqs)-1].Contains("First session done.") {
		t.Errorf("claude --continue did not resume the session Sentinel's run wrote (%d requests)", len(reqs))
	}
}

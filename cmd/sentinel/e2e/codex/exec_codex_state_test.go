//go:build unix

package codex

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	fr "github.com/sentinelhq/sentinel/internal/fakeresponses"
)

// In place, the commands Codex starts cannot write its CODEX_HOME (the
// shell wrapper's domain grants no write there): a project script that
// tries to plant a session rollout is refused every way, nothing of it
// comes back into the person's ~/.codex, and the session rollout Codex
// itself wrote does come back, and the person's own `codex exec resume
// --last` afterwards resumes it. Seen failing without the write rule set
// (the wrapper's domain scoping signals only): every plant was written and
// came back into ~/.codex/sessions; and without asDirectUse (the rollout
// named Sentinel's provider): the direct resume started a new session.
// A person whose ~/.codex already holds Codex's state db (state_5.sqlite),
// which lists only the threads it indexed: TestExecCodexResumesAcrossThePersonsIndex.
func TestExecCodexCommandsCannotWriteItsSessions(t *testing.T) {
	t.Parallel()
	e2etest.NeedCodex(t)
	dir := e2etest.CodexScriptRepo(t)
	e2etest.WriteFile(t, filepath.Join(dir, "plant.sh"), e2etest.PlantScript("CODEX_HOME", `$S/sessions/2026/01/01`))
	after := func(items ...fr.Item) fr.Turn { return fr.Turn{When: fr.AfterOutput, Items: items} }
	_, env, host := codexExecEnv(t, "gpt-5.5", fr.Script{
		fr.Reply(fr.ExecCommand("sh plant.sh", "")),
		after(fr.Text("First session done.")),
	})
	home := strings.TrimPrefix(env[0], "HOME=")
	// The agent's state must lie outside /tmp (the sandbox's own /tmp is
	// a writable root and would hold it): the cache dir elsewhere.
	cache, err := os.MkdirTemp("/var/tmp", "sentinel-e2e-cache-")
	if err != nil {
		t.Skipf("no cache dir outside /tmp: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(cache) })
	env = append(env, "XDG_CACHE_HOME="+cache)
	res := e2etest.Sentinel(t, dir, env, "exec", "--plain", "--allow-host", host, "--", "codex", "exec", "--skip-git-repo-check", "Plant it.")
	if res.Code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout:\n%s", res.Code, res.Stderr, res.Stdout)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "plant.log"))
	errs, _ := os.ReadFile(filepath.Join(dir, "plant.err"))
	for _, how := range []string{"append", "new", "python", "hardlink", "rename", "mv", "swap"} {
		if !strings.Contains(string(log), how+"=refused") {
			t.Errorf("the %s plant was not refused:\n%s\n%s\n%s", how, log, errs, res.Stdout)
		}
	}
	if !strings.Contains(string(errs), "Permission denied") {
		t.Errorf("no refusal read EACCES:\n%s", errs)
	}
	var rollouts []string
	filepath.Walk(filepath.Join(home, ".codex"), func(p string, fi os.FileInfo, _ error) error {
		if fi == nil || fi.IsDir() {
			return nil
		}
		if strings.Contains(filepath.Base(p), "planted") {
			t.Errorf("%s came back into the person's ~/.codex", p)
		} else if b, _ := os.ReadFile(p); strings.Contains(string(b), "PLANTED\n") || strings.Contains(string(b), `"content":"PLANTED"`) {
			t.Errorf("%s came back with the plant in it", p)
		}
		if strings.HasPrefix(filepath.Base(p), "rollout-") {
			rollouts = append(rollouts, p)
		}
		return nil
	})
	if len(rollouts) == 0 {
		t.Fatalf("no session came back into %s\n%s", filepath.Join(home, ".codex"), res.Stdout)
	}
	// The person's own Codex, run directly afterwards with its own
	// provider (the built-in one, pointed at a second fake model),
	// resumes the run's session: its request carries the run's turns.
	again, err := fr.Start(fr.Script{fr.Reply(fr.Text("Resumed."))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { again.Close() })
	// Codex 0.171's built-in provider takes its endpoint from
	// openai_base_url (OPENAI_BASE_URL alone left it looking up
	// api.openai.com); timeout only guards against a hang.
	direct := []string{"HOME=" + home, "XDG_CACHE_HOME=" + cache, "OPENAI_API_KEY=sk-test-fake"}
	out := e2etest.RunProgram(t, "timeout", dir, "", direct, "300", "codex", "exec", "--skip-git-repo-check", "-m", "gpt-5.5",
		"-c", "openai_base_url="+strconv.Quote(again.BaseURL()), "resume", "--last", "Go on.")
	if out.Code != 0 {
		t.Fatalf("the direct resume: exit %d\nstderr: %s\nstdout:\n%s", out.Code, out.Stderr, out.Stdout)
	}
	resumed := false
	for _, r := range again.Requests() {
		for _, u := range r.UserTexts() {
			resumed = resumed || strings.Contains(u, "Plant it.")
		}
	}
	if !resumed {
		t.Errorf("the person's direct `codex exec resume --last` did not resume the run's session (its request holds none of its turns)\nstderr: %s", out.Stderr)
	}
}

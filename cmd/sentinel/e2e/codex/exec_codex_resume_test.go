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

// A person who uses Codex directly too: their ~/.codex has Codex's state
// db (state_5.sqlite, made by any direct use), from which Codex lists
// `resume --last`. Inside `sentinel exec -- codex exec resume --last`, the
// run's Codex (Sentinel's provider) resumes the person's own last session
// of the project; and a session a run starts, which comes back into
// ~/.codex/sessions but not into that index, is indexed by the person's
// next Codex (reindexFrom), whose direct `codex exec resume --last`
// continues it. Seen failing without the seed-side rewrite (inside,
// `resume --last` started a new session: the person's said "openai") and
// without reindexFrom (the direct resume went on with the person's older
// session).
func TestExecCodexResumesAcrossThePersonsIndex(t *testing.T) {
	t.Parallel()
	e2etest.NeedCodex(t)
	dir := e2etest.ScratchRepo(t)
	model, env, host := codexExecEnv(t, "gpt-5.5", fr.Script{
		fr.Reply(fr.Text("Resumed inside.")),
		fr.Reply(fr.Text("A new one.")),
	})
	home := strings.TrimPrefix(env[0], "HOME=")
	cache, err := os.MkdirTemp("/var/tmp", "sentinel-e2e-cache-")
	if err != nil {
		t.Skipf("no cache dir outside /tmp: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(cache) })
	env = append(env, "XDG_CACHE_HOME="+cache)
	person, err := fr.Start(fr.Script{fr.Reply(fr.Text("Direct answer.")), fr.Reply(fr.Text("Direct again."))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { person.Close() })
	// Codex 0.171's built-in provider takes its endpoint from
	// openai_base_url; timeout only guards against a hang.
	direct := func(args ...string) e2etest.Result {
		t.Helper()
		out := e2etest.RunProgram(t, "timeout", dir, "", []string{"HOME=" + home, "XDG_CACHE_HOME=" + cache, "OPENAI_API_KEY=sk-test-fake"},
			append([]string{"300", "codex", "exec", "--skip-git-repo-check", "-m", "gpt-5.5", "-c", "openai_base_url=" + strconv.Quote(person.BaseURL())}, args...)...)
		if out.Code != 0 {
			t.Fatalf("codex %v directly: exit %d\nstderr: %s\nstdout:\n%s", args, out.Code, out.Stderr, out.Stdout)
		}
		return out
	}
	direct("The direct question about the heron.")
	if _, err := os.Stat(filepath.Join(home, ".codex", "state_5.sqlite")); err != nil {
		t.Fatalf("the direct use made no state db (the premise): %v", err)
	}
	sentinel := func(args ...string) e2etest.Result {
		t.Helper()
		res := e2etest.Sentinel(t, dir, env, append([]string{"exec", "--plain", "--allow-host", host, "--", "codex", "exec", "--skip-git-repo-check"}, args...)...)
		if res.Code != 0 {
			t.Fatalf("exit %d\nstderr: %s\nstdout:\n%s", res.Code, res.Stderr, res.Stdout)
		}
		return res
	}
	sentinel("resume", "--last", "Inside, go on.")
	sent := func(s *fr.Server, both ...string) bool {
		for _, r := range s.Requests() {
			texts := strings.Join(r.UserTexts(), "\n")
			all := true
			for _, w := range both {
				all = all && strings.Contains(texts, w)
			}
			if all {
				return true
			}
		}
		return false
	}
	if !sent(model, "Inside, go on.", "the heron") {
		t.Errorf("`resume --last` inside the run did not resume the person's last session (its request holds none of its turns)")
	}
	sentinel("A new question about the egret.")
	direct("resume", "--last", "Go on directly.")
	if !sent(person, "Go on directly.", "the egret") {
		t.Errorf("the person's direct `codex exec resume --last` did not continue the run's session (it is not in Codex's index)")
	}
}

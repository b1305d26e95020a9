package supervisor

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/testbin"
	"github.com/sentinelhq/sentinel/runner"
)

// A sentinel killed the moment its landing took effect (the branch made,
// or every file of a working-tree apply written) leaves a run that the
// next command records as landed, in agreement with the repository, and
// that review does not try to land again.
func TestKilledLandingAgreesWithTheRepository(t *testing.T) {
	t.Parallel()
	hooked, err := testbin.SentinelWithTestHooks()
	if err != nil {
		t.Fatal(err)
	}
	runsJSON := func(t *testing.T, dir string, env []string) *runner.Meta {
		t.Helper()
		res := e2etest.Sentinel(t, dir, env, "runs", "--json")
		var metas []*runner.Meta
		if err := json.Unmarshal([]byte(res.Stdout), &metas); err != nil || len(metas) != 1 {
			t.Fatalf("runs --json: %v %s %s", err, res.Stdout, res.Stderr)
		}
		return metas[0]
	}
	t.Run("branch", func(t *testing.T) {
		t.Parallel()
		env := []string{"XDG_STATE_HOME=" + t.TempDir()} // a state dir of its own, given to every call
		dir := e2etest.ScratchRepo(t)
		res := e2etest.Run(t, hooked, dir, append(env, "SENTINEL_TEST_CRASH_AT=branch-landed"), "run", "--plain", "--sandbox", "off",
			"--coder", "command", "edit", "--", "sh", "-c", "echo coder > c.txt")
		if res.Code != 137 {
			t.Fatalf("the injected crash did not happen: %d %s %s", res.Code, res.Stdout, res.Stderr)
		}
		m := runsJSON(t, dir, env)
		if m.Status != runner.StatusLanded || m.Landing == nil || m.Landing.Branch != "sentinel/"+m.ID {
			t.Fatalf("after the crash: %s %+v", m.Status, m.Landing)
		}
		if got := e2etest.Git(t, dir, "rev-parse", "sentinel/"+m.ID); got != m.Landing.Commit {
			t.Fatalf("the branch holds %s, the record %s", got, m.Landing.Commit)
		}
		res = e2etest.Sentinel(t, dir, env, "review", m.ID, "--approve")
		if res.Code == 0 || strings.Contains(res.Stderr, "already exists") || !strings.Contains(res.Stderr, "already landed") {
			t.Fatalf("review --approve of the landed run: %d %s", res.Code, res.Stderr)
		}
	})
	t.Run("worktree", func(t *testing.T) {
		t.Parallel()
		env := []string{"XDG_STATE_HOME=" + t.TempDir()} // a state dir of its own, given to every call
		dir := e2etest.ScratchRepo(t)
		res := e2etest.Sentinel(t, dir, env, "run", "--plain", "--sandbox", "off", "--apply", "worktree",
			"--coder", "command", "edit", "--", "sh", "-c", "echo coder > c.txt")
		if res.Code == 0 {
			t.Fatalf("an unreviewed worktree apply landed: %s", res.Stdout)
		}
		res = e2etest.Run(t, hooked, dir, append(env, "SENTINEL_TEST_CRASH_AT=worktree-applied"), "review", "last", "--approve", "--apply", "worktree", "--force")
		if res.Code != 137 {
			t.Fatalf("the injected crash did not happen: %d %s %s", res.Code, res.Stdout, res.Stderr)
		}
		m := runsJSON(t, dir, env)
		if m.Status != runner.StatusLanded || m.Landing == nil || m.Landing.Mode != runner.ApplyWorktree {
			t.Fatalf("after the crash: %s %+v", m.Status, m.Landing)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "c.txt")); string(b) != "coder\n" {
			t.Fatalf("c.txt = %q: the applied change was undone", b)
		}
		if _, err := os.Stat(filepath.Join(dir, ".sentinel", "runs", m.ID, "apply.pending.json")); err == nil {
			t.Fatal("the pending record outlived the sweep")
		}
	})
}

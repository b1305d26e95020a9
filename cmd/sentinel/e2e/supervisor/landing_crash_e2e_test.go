package supervisor

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/testbin"
	"github.com/sentinelhq/sentinel/runner"
)

// A sentinel killed the moment its landing took effect (the branch made,
// or every file of a working-tree apply written) leaves a run that the
// next command records as landed, in agreement with the repository, and
// that review does not try to land again.
func TestKilledLandingAgreesWithTheRepository(t *testing.T) {
	hooked, err := testbin.SentinelWithTestHooks()
	if err != nil {
		t.Fatal(err)
	}
	runsJSON := func(t *testing.T, dir string) *runner.Meta {
		t.Helper()
		res := sentinel(t, dir, nil, "runs", "--json")
		var metas []*runner.Meta
		if err := json.Unmarshal([]byte(res.stdout), &metas); err != nil || len(metas) != 1 {
			t.Fatalf("runs --json: %v %s %s", err, res.stdout, res.stderr)
		}
		return metas[0]
	}
	t.Run("branch", func(t *testing.T) {
		t.Setenv("XDG_STATE_HOME", t.TempDir())
		dir := scratchRepo(t)
		res := runBin(t, hooked, dir, []string{"SENTINEL_TEST_CRASH_AT=branch-landed"}, "run", "--plain", "--sandbox", "off",
			"--coder", "command", "edit", "--", "sh", "-c", "echo coder > c.txt")
		if res.code != 137 {
			t.Fatalf("the injected crash did not happen: %d %s %s", res.code, res.stdout, res.stderr)
		}
		m := runsJSON(t, dir)
		if m.Status != runner.StatusLanded || m.Landing == nil || m.Landing.Branch != "sentinel/"+m.ID {
			t.Fatalf("after the crash: %s %+v", m.Status, m.Landing)
		}
		if got := git(t, dir, "rev-parse", "sentinel/"+m.ID); got != m.Landing.Commit {
			t.Fatalf("the branch holds %s, the record %s", got, m.Landing.Commit)
		}
		res = sentinel(t, dir, nil, "review", m.ID, "--approve")
		if res.code == 0 || strings.Contains(res.stderr, "already exists") || !strings.Contains(res.stderr, "already landed") {
			t.Fatalf("review --approve of the landed run: %d %s", res.code, res.stderr)
		}
	})
	t.Run("worktree", func(t *testing.T) {
		t.Setenv("XDG_STATE_HOME", t.TempDir())
		dir := scratchRepo(t)
		res := sentinel(t, dir, nil, "run", "--plain", "--sandbox", "off", "--apply", "worktree",
			"--coder", "command", "edit", "--", "sh", "-c", "echo coder > c.txt")
		if res.code == 0 {
			t.Fatalf("an unreviewed worktree apply landed: %s", res.stdout)
		}
		res = runBin(t, hooked, dir, []string{"SENTINEL_TEST_CRASH_AT=worktree-applied"}, "review", "last", "--approve", "--apply", "worktree", "--force")
		if res.code != 137 {
			t.Fatalf("the injected crash did not happen: %d %s %s", res.code, res.stdout, res.stderr)
		}
		m := runsJSON(t, dir)
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

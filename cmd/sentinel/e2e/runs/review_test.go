package runs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/testbin"
)

const writeScenario = `
[[steps]]
id = "w"
write = "feature.txt"
content = "feature\n"

[[steps]]
done = "ok"
`

func TestReviewLandsOrRejectsAFinishedRun(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	scenario := filepath.Join(t.TempDir(), "w.toml")
	e2etest.WriteFile(t, scenario, writeScenario)

	// With nobody to review, a working-tree apply waits for review.
	res := e2etest.Sentinel(t, dir, nil, "run", "--coder", "demo", "--plain", "--scenario", scenario, "--apply", "worktree", "add a feature")
	if res.Code != 1 || !strings.Contains(res.Stderr, "sentinel review") {
		t.Fatalf("exit %d: %s", res.Code, res.Stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "feature.txt")); err == nil {
		t.Fatal("an unreviewed change reached the working tree")
	}
	m := e2etest.RunMeta(t, dir)
	if m[0].Status != "awaiting-review" || m[0].Recovery == "" {
		t.Fatalf("run after an unreviewed worktree apply: %+v", m[0])
	}
	before := e2etest.Checkout(t, dir)

	// No terminal, no flag: a clear usage error, nothing changes.
	res = e2etest.Sentinel(t, dir, nil, "review", "last")
	if res.Code != 2 || !strings.Contains(res.Stderr, "--approve or --reject") {
		t.Fatalf("review without a flag: %d %q", res.Code, res.Stderr)
	}
	res = e2etest.Sentinel(t, dir, nil, "review", "last", "--reject", "--reason", "not what I asked")
	if res.Code != 0 || !strings.Contains(res.Stdout, "rejected run") {
		t.Fatalf("reject: %d %s %s", res.Code, res.Stdout, res.Stderr)
	}
	if e2etest.Checkout(t, dir) != before {
		t.Fatal("reject changed the checkout")
	}
	if m := e2etest.RunMeta(t, dir); m[0].Status != "rejected" {
		t.Fatalf("after reject: %+v", m[0])
	}
	report, _ := os.ReadFile(filepath.Join(dir, ".sentinel", "runs", m[0].ID, "FINAL_REPORT.md"))
	if !strings.Contains(string(report), "not what I asked") {
		t.Fatalf("FINAL_REPORT.md does not give the reason:\n%s", report)
	}

	// A rejected run can still be approved later: onto a branch, when
	// --apply says so (the run's own was the working tree).
	res = e2etest.Sentinel(t, dir, nil, "review", m[0].ID, "--approve", "--apply", "branch")
	if res.Code != 0 || !strings.Contains(res.Stdout, "landed on branch sentinel/"+m[0].ID) {
		t.Fatalf("approve: %d %s %s", res.Code, res.Stdout, res.Stderr)
	}
	if got := e2etest.Git(t, dir, "show", "sentinel/"+m[0].ID+":feature.txt"); got != "feature" {
		t.Fatalf("landed feature.txt = %q", got)
	}
	if e2etest.Checkout(t, dir) != before {
		t.Fatal("approving onto a branch changed the checkout")
	}
	res = e2etest.Sentinel(t, dir, nil, "review", m[0].ID, "--approve", "--apply", "branch")
	if res.Code == 0 || !strings.Contains(res.Stderr, "already landed") {
		t.Fatalf("approving twice: %d %s", res.Code, res.Stderr)
	}

	// Another run, approved into the working tree.
	res = e2etest.Sentinel(t, dir, nil, "run", "--coder", "demo", "--plain", "--scenario", scenario, "--apply", "none", "again")
	if res.Code != 0 {
		t.Fatalf("apply none: %d %s", res.Code, res.Stderr)
	}
	res = e2etest.Sentinel(t, dir, nil, "review", "last", "--approve", "--apply", "worktree")
	if res.Code != 0 {
		t.Fatalf("approve into worktree: %d %s", res.Code, res.Stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "feature.txt")); string(b) != "feature\n" {
		t.Fatalf("feature.txt in the working tree = %q", b)
	}
}

func TestCrashesNeverLeaveAHalfAppliedProject(t *testing.T) {
	t.Parallel()
	env := []string{"XDG_STATE_HOME=" + t.TempDir()} // a state dir of its own, as every call below is given
	dir := e2etest.ScratchRepo(t)
	scenario := filepath.Join(t.TempDir(), "three.toml")
	e2etest.WriteFile(t, scenario, `
[[steps]]
write = "a.txt"
content = "a\n"
[[steps]]
write = "b.txt"
content = "b\n"
[[steps]]
edit = "main.txt"
old = "one"
new = "ONE"
[[steps]]
done = "ok"
`)
	res := e2etest.Sentinel(t, dir, env, "run", "--coder", "demo", "--plain", "--scenario", scenario, "--apply", "none", "three files")
	if res.Code != 0 {
		t.Fatalf("run: %d %s", res.Code, res.Stderr)
	}
	before := e2etest.Checkout(t, dir)
	// Die after the first of three files is replaced.
	hooked, err := testbin.SentinelWithTestHooks()
	if err != nil {
		t.Fatal(err)
	}
	res = e2etest.Run(t, hooked, dir, append(env, "SENTINEL_TEST_CRASH_AFTER_WRITES=1"), "review", "last", "--approve", "--apply", "worktree")
	if res.Code != 137 {
		t.Fatalf("the injected crash did not happen: %d %s %s", res.Code, res.Stdout, res.Stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "a.txt")); err != nil {
		t.Fatal("the crash came before any write; the test proves nothing")
	}
	// The next sentinel command puts the project back exactly as it was.
	e2etest.Sentinel(t, dir, env, "runs")
	if after := e2etest.Checkout(t, dir); after != before {
		t.Fatalf("after the crash and the sweep the checkout is not as before:\n%s\n---\n%s", before, after)
	}
	for _, f := range []string{"a.txt", "b.txt"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Fatalf("%s survived the undo", f)
		}
	}
	// And the approved patch can then land whole.
	res = e2etest.Sentinel(t, dir, env, "review", "last", "--approve", "--apply", "worktree")
	if res.Code != 0 {
		t.Fatalf("second approve: %d %s", res.Code, res.Stderr)
	}
	for f, want := range map[string]string{"a.txt": "a\n", "b.txt": "b\n", "main.txt": "ONE\ntwo (uncommitted)\n"} {
		if b, _ := os.ReadFile(filepath.Join(dir, f)); string(b) != want {
			t.Fatalf("%s = %q, want %q", f, b, want)
		}
	}
}

func TestKillNineDuringVerification(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	scenario := filepath.Join(t.TempDir(), "w.toml")
	e2etest.WriteFile(t, scenario, writeScenario)
	before := e2etest.Checkout(t, dir)
	e2etest.KillSentinelWhen(t, dir, `"kind":"verify-start"`, "run", "--coder", "demo", "--plain", "--scenario", scenario, "--verify", "sleep 120", "x")
	if e2etest.Checkout(t, dir) != before {
		t.Fatal("kill -9 during verification changed the checkout")
	}
	m := e2etest.RunMeta(t, dir)
	if m[0].Status != "interrupted" || m[0].Recovery == "" {
		t.Fatalf("after kill -9 in verification: %+v", m[0])
	}
	if b, err := os.ReadFile(filepath.Join(m[0].Recovery, "patch.diff")); err != nil || !strings.Contains(string(b), "+feature") {
		t.Fatalf("recovery patch: %v %s", err, b)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".sentinel", "work", "*")); len(left) != 0 {
		t.Fatalf("workspaces left behind: %v", left)
	}
}

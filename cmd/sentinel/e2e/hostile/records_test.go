package hostile

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/testbin"
)

// plantShadow makes a git dir at path whose config declares a clean filter
// for every file that touches marker: git running with it as GIT_DIR on
// any `git add` runs the command on the host.
func plantShadow(t *testing.T, path, marker string) {
	t.Helper()
	e2etest.Git(t, filepath.Dir(path), "init", "-q", "--bare", path)
	e2etest.Git(t, path, "config", "filter.evil.clean", "touch "+marker+"; cat")
	e2etest.Git(t, path, "config", "filter.evil.required", "true")
	e2etest.WriteFile(t, filepath.Join(path, "info", "attributes"), "* filter=evil\n")
}

// TestPlantedRunRecordsAreNeverActedOn plants what a coder could write
// under .sentinel/: run records claiming a run died mid-apply, pending
// applies pointing their root and backup anywhere, a shadow git dir with a
// filter driver, a run directory named with terminal escapes. No sentinel
// command may copy a file, run the filter, or list the forged runs; each is
// reported as an unverified record.
func TestPlantedRunRecordsAreNeverActedOn(t *testing.T) {
	t.Parallel()
	env := []string{"XDG_STATE_HOME=" + t.TempDir()} // a state dir of its own, as every call below is given
	dir := e2etest.ScratchRepo(t)
	res := e2etest.Sentinel(t, dir, env, "run", "--plain", "--coder", "command", "--apply", "none", "genuine", "--", "sh", "-c", "echo hi > out.txt")
	if res.Code != 0 {
		t.Fatalf("genuine run: %d %s", res.Code, res.Stderr)
	}
	before := e2etest.Checkout(t, dir)
	head := e2etest.Git(t, dir, "rev-parse", "HEAD")
	outside := t.TempDir()
	victim := filepath.Join(outside, "victim.txt")
	e2etest.WriteFile(t, victim, "precious\n")
	marker := filepath.Join(outside, "FILTER-RAN")
	runs := filepath.Join(dir, ".sentinel", "runs")

	// The records as the old, unsigned format had them.
	f1 := "20250101-000000-0000f1"
	e2etest.WriteFile(t, filepath.Join(runs, f1, "meta.json"),
		`{"id":"`+f1+`","status":"running","base":"`+head+`","snapshot":"`+head+`","started":"2025-01-01T00:00:00Z"}`)
	e2etest.WriteFile(t, filepath.Join(outside, "bk", "victim.txt"), "PWNED\n")
	e2etest.WriteFile(t, filepath.Join(outside, "bk", "main.txt"), "PWNED\n")
	pend, _ := json.Marshal(map[string]any{"root": outside, "backup": filepath.Join(outside, "bk"), "paths": []string{"victim.txt"}})
	e2etest.WriteFile(t, filepath.Join(runs, f1, "apply.pending.json"), string(pend))
	plantShadow(t, filepath.Join(runs, f1, "shadow.git"), marker)
	e2etest.WriteFile(t, filepath.Join(dir, ".sentinel", "work", f1, "main.txt"), "coder\n")

	// The new envelope format with a signature made with no key of the user's.
	f2 := "20250101-000000-0000f2"
	meta2, _ := json.Marshal(map[string]any{"id": f2, "status": "running", "base": head, "snapshot": head})
	env2, _ := json.Marshal(map[string]any{"record": json.RawMessage(meta2), "sig": strings.Repeat("ab", 32)})
	e2etest.WriteFile(t, filepath.Join(runs, f2, "meta.json"), string(env2))
	e2etest.WriteFile(t, filepath.Join(runs, f2, "apply-backup", "0"), "PWNED\n")
	rec2, _ := json.Marshal(map[string]any{"run": f2, "root": dir, "paths": []string{"main.txt"}, "temps": []string{".t"},
		"saved": map[string]any{"main.txt": map[string]any{"index": 0, "sha256": "", "mode": 420}}})
	penv2, _ := json.Marshal(map[string]any{"record": json.RawMessage(rec2), "sig": strings.Repeat("cd", 32)})
	e2etest.WriteFile(t, filepath.Join(runs, f2, "apply.pending.json"), string(penv2))
	plantShadow(t, filepath.Join(runs, f2, "shadow.git"), marker)
	e2etest.WriteFile(t, filepath.Join(dir, ".sentinel", "work", f2, "main.txt"), "coder\n")

	evil := "evil\x1b]0;owned\x07"
	e2etest.WriteFile(t, filepath.Join(runs, evil, "meta.json"), `{"id":"x","status":"running"}`)

	res = e2etest.Sentinel(t, dir, env, "runs")
	if res.Code != 0 {
		t.Fatalf("runs: %d %s", res.Code, res.Stderr)
	}
	for _, id := range []string{f1, f2} {
		if !strings.Contains(res.Stderr, "run "+id+": unverified record, ignored") || strings.Contains(res.Stdout, id) {
			t.Fatalf("sentinel runs does not report %s as unverified (or lists it):\nstdout:\n%s\nstderr:\n%s", id, res.Stdout, res.Stderr)
		}
	}
	if strings.Contains(res.Stderr, "\x1b") || !strings.Contains(res.Stderr, `"evil\x1b]0;owned\a": unverified record`) {
		t.Fatalf("a planted directory name reached the terminal raw:\n%q", res.Stderr)
	}
	if n := len(e2etest.RunMetaEnv(t, dir, env)); n != 1 {
		t.Fatalf("runs --json lists %d runs, want the 1 genuine one", n)
	}
	for _, id := range []string{f1, f2} {
		if r := e2etest.Sentinel(t, dir, env, "show", id); r.Code == 0 || !strings.Contains(r.Stderr, "unverified record, ignored") {
			t.Fatalf("show %s: %d %s", id, r.Code, r.Stderr)
		}
		if r := e2etest.Sentinel(t, dir, env, "review", id, "--approve", "--apply", "worktree"); r.Code == 0 {
			t.Fatalf("review %s --approve landed a forged run: %s", id, r.Stdout)
		}
	}
	res = e2etest.Sentinel(t, dir, env, "run", "--plain", "--coder", "command", "--apply", "none", "again", "--", "sh", "-c", "echo hi > out.txt")
	if res.Code != 0 {
		t.Fatalf("a new run: %d %s", res.Code, res.Stderr)
	}

	if b, _ := os.ReadFile(victim); string(b) != "precious\n" {
		t.Fatalf("a planted pending apply copied a file outside the project: %q", b)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a planted shadow git dir's filter ran on the host")
	}
	if after := e2etest.Checkout(t, dir); after != before {
		t.Fatalf("planted records changed the checkout:\n%s\n---\n%s", before, after)
	}
	for _, id := range []string{f1, f2} {
		if b, _ := os.ReadFile(filepath.Join(runs, id, "meta.json")); !strings.Contains(string(b), `"running"`) {
			t.Fatalf("a forged record of %s was acted on: %s", id, b)
		}
		if _, err := os.Stat(filepath.Join(dir, ".sentinel", "recovery", id)); err == nil {
			t.Fatalf("a forged run %s was 'recovered'", id)
		}
	}
}

// TestCrashSweepUsesOnlyItsOwnShadowGitDir kills a genuine run, plants a
// shadow git dir with a filter driver in its run directory, and lets the
// next command find the dead run: its work is recovered through Sentinel's
// own shadow git dir (in the user's state dir), and the filter never runs.
func TestCrashSweepUsesOnlyItsOwnShadowGitDir(t *testing.T) {
	t.Parallel()
	env := []string{"XDG_STATE_HOME=" + t.TempDir()} // a state dir of its own, as every call below is given
	dir := e2etest.ScratchRepo(t)
	marker := filepath.Join(t.TempDir(), "FILTER-RAN")
	journalPath := e2etest.KillNineWhenEnv(t, e2etest.Bin, dir, env, "WRITTEN-2", "run", "--plain", "--coder", "command", "--apply", "none", "x", "--",
		"sh", "-c", "echo work > w.txt; echo WRITTEN-$((1+1)); sleep 120")
	runDir := filepath.Dir(journalPath)
	plantShadow(t, filepath.Join(runDir, "shadow.git"), marker)

	m := e2etest.RunMetaEnv(t, dir, env)
	if len(m) != 1 || m[0].Status != "interrupted" || m[0].Recovery == "" {
		t.Fatalf("after kill -9: %+v", m)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the crash sweep ran a planted shadow git dir's filter on the host")
	}
	if b, err := os.ReadFile(filepath.Join(m[0].Recovery, "patch.diff")); err != nil || !strings.Contains(string(b), "+work") {
		t.Fatalf("recovery patch: %v %s", err, b)
	}
}

// TestWorktreeApplyNeverWritesThroughASymlink: a committed symlink at the
// temp name the apply once used must not make an approved edit overwrite
// the file it points at.
func TestWorktreeApplyNeverWritesThroughASymlink(t *testing.T) {
	t.Parallel()
	env := []string{"XDG_STATE_HOME=" + t.TempDir()} // a state dir of its own, as every call below is given
	dir := t.TempDir()
	e2etest.Git(t, dir, "init", "-q")
	outside := filepath.Join(t.TempDir(), "secret.txt")
	e2etest.WriteFile(t, outside, "outside\n")
	os.Chmod(outside, 0o600)
	e2etest.WriteFile(t, filepath.Join(dir, "notes.txt"), "notes\n")
	if err := os.Symlink(outside, filepath.Join(dir, "notes.txt.sentinel-tmp")); err != nil {
		t.Fatal(err)
	}
	e2etest.Git(t, dir, "add", "-A")
	e2etest.Git(t, dir, "commit", "-qm", "init")

	res := e2etest.Sentinel(t, dir, env, "run", "--plain", "--coder", "command", "--apply", "none", "edit notes", "--", "sh", "-c", "echo edited > notes.txt")
	if res.Code != 0 {
		t.Fatalf("run: %d %s", res.Code, res.Stderr)
	}
	res = e2etest.Sentinel(t, dir, env, "review", "last", "--approve", "--apply", "worktree")
	if res.Code != 0 {
		t.Fatalf("approve into the worktree: %d %s", res.Code, res.Stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "notes.txt")); string(b) != "edited\n" {
		t.Fatalf("notes.txt = %q", b)
	}
	st, _ := os.Stat(outside)
	if b, _ := os.ReadFile(outside); string(b) != "outside\n" || st.Mode().Perm() != 0o600 {
		t.Fatalf("the file outside the project changed: %q, mode %v", b, st.Mode().Perm())
	}
	if l, err := os.Readlink(filepath.Join(dir, "notes.txt.sentinel-tmp")); err != nil || l != outside {
		t.Fatalf("the person's committed symlink was touched: %q %v", l, err)
	}
}

// TestShippedBinaryHasNoTestHooks: the crash switch exists only in a
// -tags sentineltest build.
func TestShippedBinaryHasNoTestHooks(t *testing.T) {
	t.Parallel()
	const hook = "SENTINEL_TEST_CRASH_AFTER_WRITES"
	shipped, err := os.ReadFile(e2etest.Bin)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(shipped, []byte(hook)) {
		t.Fatalf("the default build reads %s", hook)
	}
	hooked, err := testbin.SentinelWithTestHooks()
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(hooked); !bytes.Contains(b, []byte(hook)) {
		t.Fatal("the test build has no crash switch either; this test checks nothing")
	}
}

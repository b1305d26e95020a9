package runs

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/journal"
)

func TestRunDemoPlainLandsOnABranchAndLeavesTheCheckoutAlone(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	before := e2etest.Checkout(t, dir)
	res := e2etest.Sentinel(t, dir, nil, "run", "--coder", "demo", "--plain", "add a Shout function")
	if res.Code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", res.Code, res.Stdout, res.Stderr)
	}
	if after := e2etest.Checkout(t, dir); after != before {
		t.Fatalf("the checkout changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	for _, tag := range []string{"[SYSTEM]", "[CODER]", "[APPROVAL]", "[DENIED]", "[TOOL]", "[SUPERVISOR]"} {
		if !strings.Contains(res.Stdout, tag) {
			t.Errorf("plain output has no %s line", tag)
		}
	}
	// With no person at a terminal, what needs asking is denied as such.
	if !strings.Contains(res.Stdout, "no one to ask") {
		t.Errorf("plain output never says 'no one to ask':\n%s", res.Stdout)
	}

	branches := strings.Fields(strings.ReplaceAll(e2etest.Git(t, dir, "branch", "--list", "sentinel/*", "--format=%(refname:short)"), "\n", " "))
	if len(branches) != 1 {
		t.Fatalf("sentinel branches: %v", branches)
	}
	branch := branches[0]
	subjects := e2etest.Git(t, dir, "log", "--format=%s", "main.."+branch)
	lines := strings.Split(subjects, "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[1], "sentinel: snapshot of uncommitted changes") {
		t.Fatalf("branch commits (newest first):\n%s", subjects)
	}
	snapFiles := e2etest.Git(t, dir, "diff", "--name-only", "main", branch+"~1")
	if snapFiles != "main.txt\nnotes.md\nstaged.txt" {
		t.Fatalf("snapshot commit files: %q", snapFiles)
	}
	coderFiles := e2etest.Git(t, dir, "diff", "--name-only", branch+"~1", branch)
	if !strings.Contains(coderFiles, "shout.go") || strings.Contains(coderFiles, "main.txt") {
		t.Fatalf("coder commit files: %q", coderFiles)
	}
	if got := e2etest.Git(t, dir, "show", branch+":notes.md"); got != "untracked notes" {
		t.Fatalf("notes.md on the branch = %q", got)
	}

	// runs and show report it; every journal line is valid JSON.
	id := strings.TrimPrefix(branch, "sentinel/")
	runs := e2etest.Sentinel(t, dir, nil, "runs", "--json")
	var metas []struct {
		ID, Status, Coder, Task string
		Decisions               struct{ Allowed, Denied int }
	}
	if err := json.Unmarshal([]byte(runs.Stdout), &metas); err != nil || len(metas) != 1 {
		t.Fatalf("runs --json: %v\n%s", err, runs.Stdout)
	}
	if m := metas[0]; m.ID != id || m.Status != "landed" || m.Coder != "demo" || m.Task != "add a Shout function" || m.Decisions.Denied == 0 || m.Decisions.Allowed == 0 {
		t.Fatalf("runs --json entry: %+v", m)
	}
	table := e2etest.Sentinel(t, dir, nil, "runs")
	if !strings.Contains(table.Stdout, id) || !strings.Contains(table.Stdout, "landed") {
		t.Fatalf("runs table:\n%s", table.Stdout)
	}
	raw, err := os.ReadFile(filepath.Join(dir, ".sentinel", "runs", id, "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n") {
		var ev journal.Event
		if err := json.Unmarshal([]byte(l), &ev); err != nil || ev.Run != id || !ev.Lane.Valid() {
			t.Fatalf("journal line %d invalid (%v): %s", i+1, err, l)
		}
	}
	show := e2etest.Sentinel(t, dir, nil, "show", id[:12], "--lane", "approval")
	if show.Code != 0 || !strings.Contains(show.Stdout, "[APPROVAL]") || strings.Contains(show.Stdout, "[CODER]") {
		t.Fatalf("show --lane approval:\n%s\n%s", show.Stdout, show.Stderr)
	}
	showJSON := e2etest.Sentinel(t, dir, nil, "show", "last", "--json")
	if strings.Count(showJSON.Stdout, "\n") != strings.Count(string(raw), "\n") {
		t.Fatalf("show --json printed %d lines, journal has %d", strings.Count(showJSON.Stdout, "\n"), strings.Count(string(raw), "\n"))
	}
	if !strings.Contains(string(raw), `"kind":"steer"`) {
		t.Fatal("the journal has no steering message")
	}
	// .sentinel is ignored through info/exclude, never .gitignore.
	if _, err := os.Stat(filepath.Join(dir, ".gitignore")); err == nil {
		t.Fatal("a .gitignore was created")
	}
	if ex, _ := os.ReadFile(filepath.Join(dir, ".git", "info", "exclude")); !strings.Contains(string(ex), "/.sentinel/") {
		t.Fatalf("info/exclude: %q", ex)
	}
}

func TestKillNineMidRunLeavesTheProjectAloneAndTheWorkInRecovery(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	scenario := filepath.Join(t.TempDir(), "slow.toml")
	e2etest.WriteFile(t, scenario, `
[[steps]]
id = "w"
write = "work.txt"
content = "half-done work\n"

[[steps]]
say = "thinking for a long time"

[[steps]]
await = "60s"

[[steps]]
done = "never reached"
`)
	before := e2etest.Checkout(t, dir)
	// Wait until the write has been decided and reported, then kill -9.
	journalPath := e2etest.KillSentinelWhen(t, dir, "thinking for a long time", "run", "--coder", "demo", "--plain", "--scenario", scenario, "slow task")

	if after := e2etest.Checkout(t, dir); after != before {
		t.Fatalf("kill -9 changed the checkout:\n%s\n---\n%s", before, after)
	}
	if b := e2etest.Git(t, dir, "branch", "--list", "sentinel/*"); b != "" {
		t.Fatalf("a killed run left a branch: %s", b)
	}
	raw, _ := os.ReadFile(journalPath)
	if len(raw) == 0 || raw[len(raw)-1] != '\n' {
		t.Fatal("the journal ends in a partial line")
	}
	if _, err := journal.ReadFile(journalPath); err != nil {
		t.Fatalf("journal after kill -9: %v", err)
	}
	// The next sentinel command in the project finds the dead run.
	res := e2etest.Sentinel(t, dir, nil, "runs", "--json")
	var metas []struct{ ID, Status, Recovery string }
	if err := json.Unmarshal([]byte(res.Stdout), &metas); err != nil || len(metas) != 1 {
		t.Fatalf("runs --json: %v %s", err, res.Stdout)
	}
	if metas[0].Status != "interrupted" || metas[0].Recovery == "" {
		t.Fatalf("killed run: %+v", metas[0])
	}
	patch, err := os.ReadFile(filepath.Join(metas[0].Recovery, "patch.diff"))
	if err != nil || !strings.Contains(string(patch), "+half-done work") {
		t.Fatalf("recovery patch: %v\n%s", err, patch)
	}
	if b, err := os.ReadFile(filepath.Join(metas[0].Recovery, "workspace", "work.txt")); err != nil || string(b) != "half-done work\n" {
		t.Fatalf("recovery workspace: %v %q", err, b)
	}
}

func TestBadInputGetsOneLineErrorAndNonZeroExit(t *testing.T) {
	t.Parallel()
	repo := e2etest.ScratchRepo(t)
	plainDir := t.TempDir()
	empty := t.TempDir()
	e2etest.Git(t, empty, "init", "-q")
	badScenario := filepath.Join(t.TempDir(), "bad.toml")
	e2etest.WriteFile(t, badScenario, "[[steps]]\nsay = \"hi\"\nshell = \n")
	// A repository that commits its own (allow-everything) project policy.
	shipsState := t.TempDir()
	e2etest.Git(t, shipsState, "init", "-q")
	e2etest.WriteFile(t, filepath.Join(shipsState, ".sentinel", "policy.toml"), "# allow everything\n")
	e2etest.Git(t, shipsState, "add", "-A")
	e2etest.Git(t, shipsState, "commit", "-qm", "init")
	// A PATH with git but no agent CLIs on it.
	bin := t.TempDir()
	gitPath, _ := exec.LookPath("git")
	os.Symlink(gitPath, filepath.Join(bin, "git"))
	noAgents := []string{"PATH=" + bin}

	cases := []struct {
		name string
		dir  string
		env  []string
		args []string
		code int
		want string
	}{
		{"unknown flag", repo, nil, []string{"run", "--bogus"}, 2, "unknown flag: --bogus"},
		{"unknown command", repo, nil, []string{"frobnicate"}, 2, "unknown command"},
		{"missing task", repo, nil, []string{"run", "--coder", "demo"}, 2, "no task"},
		{"empty task file", repo, nil, []string{"run", "--coder", "demo", "--task", "/dev/null"}, 2, "is empty"},
		{"not a repository", plainDir, nil, []string{"run", "--coder", "demo", "x"}, 1, "not inside a git repository"},
		{"no commits", empty, nil, []string{"run", "--coder", "demo", "x"}, 1, "no commits yet"},
		{"coder not installed", repo, noAgents, []string{"run", "--coder", "claude", "x"}, 1, "not installed"},
		{"unknown coder", repo, nil, []string{"run", "--coder", "nope", "x"}, 2, "unknown coder"},
		{"ACP coder named directly", repo, nil, []string{"run", "--coder", "gemini", "x"}, 2, "--coder acp"},
		{"unknown theme", repo, nil, []string{"run", "--coder", "demo", "--theme", "nope", "x"}, 2, `--theme: theme "nope" not found`},
		{"bad apply", repo, nil, []string{"run", "--coder", "demo", "--apply", "yolo", "x"}, 2, "--apply"},
		{"bad sandbox", repo, nil, []string{"run", "--coder", "demo", "--sandbox", "maybe", "x"}, 2, "--sandbox"},
		{"bad size limit", repo, nil, []string{"run", "--coder", "demo", "--max-file-size", "lots", "x"}, 2, "--max-file-size"},
		{"malformed scenario", repo, nil, []string{"run", "--coder", "demo", "--scenario", badScenario, "x"}, 1, "bad.toml:3"},
		{"missing scenario", repo, nil, []string{"run", "--coder", "demo", "--scenario", "/nonexistent.toml", "x"}, 1, "/nonexistent.toml"},
		{"negative supervisor timeout", repo, nil, []string{"run", "--coder", "demo", "--supervisor-timeout", "-1s", "x"}, 2, "--supervisor-timeout -1s: want a positive duration"},
		{"show unknown run", repo, nil, []string{"show", "nope"}, 1, "no run"},
		{"repository ships .sentinel", shipsState, nil, []string{"run", "--coder", "demo", "x"}, 1, "does not trust policy"},
		{"show bad lane", repo, nil, []string{"show", "x", "--lane", "bogus"}, 2, "--lane"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := e2etest.Checkout(t, repo)
			res := e2etest.Sentinel(t, c.dir, c.env, c.args...)
			if res.Code != c.code {
				t.Errorf("exit %d, want %d (stderr %q)", res.Code, c.code, res.Stderr)
			}
			msg := strings.TrimRight(res.Stderr, "\n")
			if strings.Count(msg, "\n") != 0 || !strings.HasPrefix(msg, "sentinel: ") || !strings.Contains(msg, c.want) {
				t.Errorf("stderr %q: want one line starting 'sentinel: ' containing %q", res.Stderr, c.want)
			}
			if e2etest.Checkout(t, repo) != before {
				t.Error("a refused command changed the checkout")
			}
		})
	}
}

// sentinel --version (and -v) print what sentinel version prints.
func TestVersionFlagMatchesVersionCommand(t *testing.T) {
	t.Parallel()
	want := e2etest.Sentinel(t, t.TempDir(), nil, "version")
	if want.Code != 0 || !strings.HasPrefix(want.Stdout, "sentinel ") {
		t.Fatalf("version: exit %d, %q %q", want.Code, want.Stdout, want.Stderr)
	}
	for _, flag := range []string{"--version", "-v"} {
		got := e2etest.Sentinel(t, t.TempDir(), nil, flag)
		if got.Code != 0 || got.Stdout != want.Stdout || got.Stderr != "" {
			t.Errorf("%s: exit %d, stdout %q stderr %q; want %q", flag, got.Code, got.Stdout, got.Stderr, want.Stdout)
		}
	}
}

func TestHelpOnEverySubcommand(t *testing.T) {
	t.Parallel()
	for _, sub := range []string{"run", "demo", "runs", "show", "version"} {
		res := e2etest.Sentinel(t, t.TempDir(), nil, sub, "--help")
		if res.Code != 0 || !strings.Contains(res.Stdout, "Usage:") || !strings.Contains(res.Stdout, "sentinel "+sub) {
			t.Errorf("%s --help: exit %d\n%s", sub, res.Code, res.Stdout)
		}
	}
}

func TestVerificationOnACleanCopyDecidesWhetherWorkLands(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	scenario := filepath.Join(t.TempDir(), "claims.toml")
	e2etest.WriteFile(t, scenario, `
[[steps]]
id = "w"
write = "feature.txt"
content = "done\n"

[[steps]]
say = "All tests pass!"

[[steps]]
done = "finished, tests pass"
`)
	// The check fails on the clean copy whatever the coder claims.
	res := e2etest.Sentinel(t, dir, nil, "run", "--coder", "demo", "--plain", "--scenario", scenario,
		"--verify", "test -f feature.txt", "--verify", "grep -q approved feature.txt", "ship it")
	if res.Code != 1 || !strings.Contains(res.Stderr, "verification failed: grep -q approved feature.txt exited 1") {
		t.Fatalf("exit %d, stderr %q\n%s", res.Code, res.Stderr, res.Stdout)
	}
	if b := e2etest.Git(t, dir, "branch", "--list", "sentinel/*"); b != "" {
		t.Fatalf("work that failed verification landed: %s", b)
	}
	if !strings.Contains(res.Stdout, "[TOOL] verify: test -f feature.txt → passed") {
		t.Fatalf("the passing check is not reported:\n%s", res.Stdout)
	}
	m, _ := filepath.Glob(filepath.Join(dir, ".sentinel", "runs", "*", "FINAL_REPORT.md"))
	if len(m) != 1 {
		t.Fatal("no FINAL_REPORT.md")
	}
	report, _ := os.ReadFile(m[0])
	for _, want := range []string{"**failed (recovery)**", "`grep -q approved feature.txt` | flag | 1", "feature.txt", "kept in"} {
		if !strings.Contains(string(report), want) {
			t.Errorf("FINAL_REPORT.md lacks %q:\n%s", want, report)
		}
	}
	for _, f := range []string{"PROGRESS.md", "DECISIONS.md"} {
		if b, err := os.ReadFile(filepath.Join(filepath.Dir(m[0]), f)); err != nil || !strings.Contains(string(b), "feature.txt") {
			t.Errorf("%s: %v\n%s", f, err, b)
		}
	}

	// The same run with a check that passes lands, and says so in the commit.
	res = e2etest.Sentinel(t, dir, nil, "run", "--coder", "demo", "--plain", "--scenario", scenario, "--verify", "test -f feature.txt", "ship it")
	if res.Code != 0 {
		t.Fatalf("exit %d: %s", res.Code, res.Stderr)
	}
	msg := e2etest.Git(t, dir, "log", "-1", "--format=%B", "--branches=sentinel/*")
	if !strings.Contains(msg, "Sentinel-Verified: test -f feature.txt (exit 0)") || !strings.Contains(msg, "Sentinel-Approvals: 1 allowed, 0 denied") {
		t.Fatalf("commit message:\n%s", msg)
	}
}

package runs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/fakeopenai"
)

func TestCompletionReviewReturnsWorkToAFreshCoderWithAHandoff(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	scenario := filepath.Join(t.TempDir(), "gate.toml")
	e2etest.WriteFile(t, scenario, e2etest.GateScenario)
	srv, err := fakeopenai.Start(fakeopenai.Probe(),
		fakeopenai.Reply{Content: `{"verdict":"return","reason":"there is no test for the feature","missing":["a test for feature.txt"]}`},
		fakeopenai.Reply{Content: `{"verdict":"accept","reason":"the feature is there and checked","missing":[]}`},
	)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	res := e2etest.Sentinel(t, dir, nil, "run", "--coder", "demo", "--plain", "--scenario", scenario,
		"--supervisor", "openai", "--supervisor-url", srv.URL, "--supervisor-model", "fake", "--adversary-runs", "0", "--verify", "test -f feature.txt", "add the feature")
	if res.Code != 0 {
		t.Fatalf("exit %d: %s\n%s", res.Code, res.Stderr, res.Stdout)
	}
	if n := strings.Count(res.Stdout, "[SYSTEM] coder demo started"); n != 2 {
		t.Fatalf("the coder started %d times, want 2 (one restart):\n%s", n, res.Stdout)
	}
	id := e2etest.LastRun(t, dir)
	handoff, err := os.ReadFile(filepath.Join(dir, ".sentinel", "runs", id, "HANDOFF.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Objective", "add the feature", "there is no test for the feature", "missing: a test for feature.txt", "test -f feature.txt → exit 0", "`feature.txt`"} {
		if !strings.Contains(string(handoff), want) {
			t.Errorf("HANDOFF.md lacks %q:\n%s", want, handoff)
		}
	}
	// The review saw the task and the validation ledger, in a fresh context.
	reqs := e2etest.ModelTurns(t, srv)
	if len(reqs) != 2 || !strings.Contains(reqs[0].UserText(), "test -f feature.txt") {
		t.Fatalf("review requests: %d; first: %s", len(reqs), reqs[0].UserText())
	}
	// The reviewer reads the change itself, not only the file names, and
	// each check with its exit status.
	for _, want := range []string{"diff --git a/feature.txt b/feature.txt", "+feature", "- test -f feature.txt → exit 0"} {
		if !strings.Contains(reqs[0].UserText(), want) {
			t.Errorf("the review's prompt lacks %q:\n%s", want, reqs[0].UserText())
		}
	}
	if e2etest.Git(t, dir, "branch", "--list", "sentinel/"+id) == "" {
		t.Fatal("the accepted work did not land")
	}
}

func TestStuckCoderStopsWithAReportInsteadOfLanding(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	res := neverGoodEnough(t, dir, "--max-restarts", "1", "--verify", "test -f feature.txt")
	if res.Code != 1 || !strings.Contains(res.Stderr, "stuck") {
		t.Fatalf("exit %d: %s", res.Code, res.Stderr)
	}
	if n := strings.Count(res.Stdout, "[SYSTEM] coder demo started"); n != 2 {
		t.Fatalf("the coder started %d times, want 2", n)
	}
	id := e2etest.LastRun(t, dir)
	if b, err := os.ReadFile(filepath.Join(dir, ".sentinel", "runs", id, "STUCK.md")); err != nil || !strings.Contains(string(b), "still wrong") {
		t.Fatalf("STUCK.md: %v\n%s", err, b)
	}
	// The report a person reads on coming back holds what happened: the
	// checks run at each gate, each verdict and restart with its reason.
	report, err := os.ReadFile(filepath.Join(dir, ".sentinel", "runs", id, "FINAL_REPORT.md"))
	if err != nil {
		t.Fatal(err)
	}
	// The second attempt left the same patch: its check is not run again
	// (one verification per patch), and the journal says so.
	if n := strings.Count(string(report), "| `test -f feature.txt` | 0 |"); n != 1 {
		t.Errorf("FINAL_REPORT.md lists the gate's check %d times, want 1 (the same patch twice):\n%s", n, report)
	}
	if !strings.Contains(res.Stdout, "not run again: this patch") {
		t.Errorf("the second gate does not say its verification was reused:\n%s", res.Stdout)
	}
	for _, want := range []string{"## Checks Sentinel ran", "## Gates and restarts", "completion review returned the work (restart 1 of 1): still wrong", "stuck: the completion review returned the work 2 times"} {
		if !strings.Contains(string(report), want) {
			t.Errorf("FINAL_REPORT.md lacks %q:\n%s", want, report)
		}
	}
	if strings.Contains(string(report), "No checks ran") {
		t.Errorf("a stuck run whose gate ran checks says none ran:\n%s", report)
	}
	if b := e2etest.Git(t, dir, "branch", "--list", "sentinel/*"); b != "" {
		t.Fatalf("a stuck run landed: %s", b)
	}
	if m := e2etest.RunMeta(t, dir); m[0].Status != "failed" || m[0].Recovery == "" {
		t.Fatalf("stuck run: %+v", m[0])
	}
}

func TestAdversaryFindingsReachTheCoder(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	scenario := filepath.Join(t.TempDir(), "gate.toml")
	e2etest.WriteFile(t, scenario, e2etest.GateScenario)
	accept := fakeopenai.Reply{Content: `{"verdict":"accept","reason":"looks done","missing":[]}`}
	srv, err := fakeopenai.Start(fakeopenai.Probe(),
		accept,
		fakeopenai.Reply{Content: `{"probes":[{"command":"test -f feature.txt","expect":"the file exists"},{"command":"grep -q approved feature.txt","expect":"the feature is approved"}]}`},
		accept,
		fakeopenai.Reply{Content: `{"probes":[{"command":"test -f feature.txt","expect":"the file exists"}]}`},
	)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	res := e2etest.Sentinel(t, dir, nil, "run", "--coder", "demo", "--plain", "--scenario", scenario,
		"--supervisor", "openai", "--supervisor-url", srv.URL, "--supervisor-model", "fake", "add the feature")
	if res.Code != 0 {
		t.Fatalf("exit %d: %s\n%s", res.Code, res.Stderr, res.Stdout)
	}
	for _, want := range []string{"[ADVERSARY] probe: grep -q approved feature.txt", "[ADVERSARY] probe `grep -q approved feature.txt` failed (exit 1)", "[ADVERSARY] the adversarial tester's probes all passed"} {
		if !strings.Contains(res.Stdout, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if n := strings.Count(res.Stdout, "[SYSTEM] coder demo started"); n != 2 {
		t.Fatalf("the coder started %d times, want 2 (the finding sent it back)", n)
	}
	// The tester knew the task and the changed files, not how they were made.
	reqs := e2etest.ModelTurns(t, srv)
	adv := reqs[1].UserText()
	if !strings.Contains(adv, "add the feature") || !strings.Contains(adv, "feature.txt") || strings.Contains(adv, "done, honestly") || strings.Contains(adv, "diff --git") {
		t.Fatalf("the adversary's request:\n%s", adv)
	}
	handoff, _ := os.ReadFile(filepath.Join(dir, ".sentinel", "runs", e2etest.LastRun(t, dir), "HANDOFF.md"))
	if !strings.Contains(string(handoff), "grep -q approved feature.txt") {
		t.Fatalf("the finding is not in the handoff:\n%s", handoff)
	}
}

func TestEverydayPresetSkipsTheCompletionGate(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	scenario := filepath.Join(t.TempDir(), "gate.toml")
	e2etest.WriteFile(t, scenario, e2etest.GateScenario)
	srv, err := fakeopenai.Start(fakeopenai.Probe(), fakeopenai.Reply{Content: `{"verdict":"return","reason":"never","missing":["x"]}`})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	res := e2etest.Sentinel(t, dir, nil, "run", "--coder", "demo", "--plain", "--scenario", scenario, "--preset", "everyday",
		"--supervisor", "openai", "--supervisor-url", srv.URL, "--supervisor-model", "fake", "add the feature")
	if res.Code != 0 || len(e2etest.ModelTurns(t, srv)) != 0 {
		t.Fatalf("exit %d, %d model requests: %s", res.Code, len(e2etest.ModelTurns(t, srv)), res.Stderr)
	}
	bad := e2etest.Sentinel(t, dir, nil, "run", "--coder", "demo", "--preset", "lazy", "x")
	if bad.Code != 2 || !strings.Contains(bad.Stderr, "--preset") {
		t.Fatalf("bad preset: %d %s", bad.Code, bad.Stderr)
	}
}

func TestACoderThatIgnoresSteeringIsRestartedWithTheEvidence(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	scenario := filepath.Join(t.TempDir(), "drift.toml")
	e2etest.WriteFile(t, scenario, `
[[steps]]
write = "feature.txt"
content = "feature\n"
[[steps]]
shell = "go vet ./... || true"
[[steps]]
shell = "go test ./... | tail -3"
[[steps]]
shell = "go build ./... ; exit 0"
[[steps]]
await = "8s"
[[steps]]
done = "all green!"
`)
	srv, err := fakeopenai.Start(fakeopenai.Probe(), fakeopenai.Reply{Content: `{"verdict":"accept","reason":"fine","missing":[]}`})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	res := e2etest.Sentinel(t, dir, nil, "run", "--coder", "demo", "--plain", "--scenario", scenario, "--adversary-runs", "0", "--max-restarts", "1",
		"--supervisor", "openai", "--supervisor-url", srv.URL, "--supervisor-model", "fake", "add the feature")
	// The fresh coder repeats its predecessor's drift (the demo plays the
	// same scenario): findings are per coder generation, so it is steered
	// again, restarted again, and the run ends stuck instead of landing.
	if res.Code != 1 || !strings.Contains(res.Stderr, "stuck: the coder kept ignoring steering") {
		t.Fatalf("exit %d: %s\n%s", res.Code, res.Stderr, res.Stdout)
	}
	if n := strings.Count(res.Stdout, "[SYSTEM] coder demo started"); n != 2 {
		t.Fatalf("the coder started %d times, want 2:\n%s", n, res.Stdout)
	}
	if n := strings.Count(res.Stdout, "[SUPERVISOR] noticed (masked_exit): `go vet ./... || true`"); n != 2 {
		t.Fatalf("the drift was noticed %d times, want once per coder (2):\n%s", n, res.Stdout)
	}
	if b := e2etest.Git(t, dir, "branch", "--list", "sentinel/*"); b != "" {
		t.Fatalf("a coder that kept drifting landed: %s", b)
	}
	if !strings.Contains(res.Stdout, "Steering received:") {
		t.Fatal("the steering never reached the coder")
	}
	handoff, err := os.ReadFile(filepath.Join(dir, ".sentinel", "runs", e2etest.LastRun(t, dir), "HANDOFF.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"steered 3 times and kept drifting", "go vet ./... || true", "go test ./... | tail -3", "`feature.txt`"} {
		if !strings.Contains(string(handoff), want) {
			t.Errorf("HANDOFF.md lacks %q:\n%s", want, handoff)
		}
	}
}

// --max-restarts 0 means no restart: the first returned "done" ends the run
// stuck with one coder started; a negative count is a usage error.
func TestMaxRestartsZeroStartsOneCoder(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	res := neverGoodEnough(t, dir, "--max-restarts", "0")
	if res.Code != 1 || !strings.Contains(res.Stderr, "stuck") {
		t.Fatalf("exit %d: %s", res.Code, res.Stderr)
	}
	if n := strings.Count(res.Stdout, "[SYSTEM] coder demo started"); n != 1 {
		t.Fatalf("the coder started %d times, want 1:\n%s", n, res.Stdout)
	}

	bad := e2etest.Sentinel(t, dir, nil, "run", "--coder", "demo", "--plain", "--max-restarts", "-1", "anything")
	if bad.Code != 2 || !strings.Contains(bad.Stderr, "--max-restarts -1") {
		t.Fatalf("--max-restarts -1: exit %d: %s", bad.Code, bad.Stderr)
	}
}

// neverGoodEnough runs the demo coder in dir with a supervisor whose
// completion review returns the work every time.
func neverGoodEnough(t *testing.T, dir string, flags ...string) e2etest.Result {
	t.Helper()
	scenario := filepath.Join(t.TempDir(), "gate.toml")
	e2etest.WriteFile(t, scenario, e2etest.GateScenario)
	srv, err := fakeopenai.Start(fakeopenai.Probe(), fakeopenai.Reply{Content: `{"verdict":"return","reason":"still wrong","missing":["everything"]}`})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	args := append([]string{"run", "--coder", "demo", "--plain", "--scenario", scenario, "--adversary-runs", "0"}, flags...)
	args = append(args, "--supervisor", "openai", "--supervisor-url", srv.URL, "--supervisor-model", "fake", "never good enough")
	return e2etest.Sentinel(t, dir, nil, args...)
}

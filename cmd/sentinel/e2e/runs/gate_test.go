package runs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/fakeopenai"
)

// gateScenario writes one file and says it is done (e2e/hostile uses it too).
const gateScenario = e2etest.GateScenario

func TestCompletionReviewReturnsWorkToAFreshCoderWithAHandoff(t *testing.T) {
	dir := scratchRepo(t)
	scenario := filepath.Join(t.TempDir(), "gate.toml")
	writeFile(t, scenario, gateScenario)
	srv, err := fakeopenai.Start(fakeopenai.Probe(),
		fakeopenai.Reply{Content: `{"verdict":"return","reason":"there is no test for the feature","missing":["a test for feature.txt"]}`},
		fakeopenai.Reply{Content: `{"verdict":"accept","reason":"the feature is there and checked","missing":[]}`},
	)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	res := sentinel(t, dir, nil, "run", "--coder", "demo", "--plain", "--scenario", scenario,
		"--supervisor", "openai", "--supervisor-url", srv.URL, "--supervisor-model", "fake", "--adversary-runs", "0", "--verify", "test -f feature.txt", "add the feature")
	if res.code != 0 {
		t.Fatalf("exit %d: %s\n%s", res.code, res.stderr, res.stdout)
	}
	if n := strings.Count(res.stdout, "[SYSTEM] coder demo started"); n != 2 {
		t.Fatalf("the coder started %d times, want 2 (one restart):\n%s", n, res.stdout)
	}
	id := lastRun(t, dir)
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
	reqs := modelTurns(t, srv)
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
	if git(t, dir, "branch", "--list", "sentinel/"+id) == "" {
		t.Fatal("the accepted work did not land")
	}
}

func TestStuckCoderStopsWithAReportInsteadOfLanding(t *testing.T) {
	dir := scratchRepo(t)
	res := neverGoodEnough(t, dir, "--max-restarts", "1", "--verify", "test -f feature.txt")
	if res.code != 1 || !strings.Contains(res.stderr, "stuck") {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	if n := strings.Count(res.stdout, "[SYSTEM] coder demo started"); n != 2 {
		t.Fatalf("the coder started %d times, want 2", n)
	}
	id := lastRun(t, dir)
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
	if !strings.Contains(res.stdout, "not run again: this patch") {
		t.Errorf("the second gate does not say its verification was reused:\n%s", res.stdout)
	}
	for _, want := range []string{"## Checks Sentinel ran", "## Gates and restarts", "completion review returned the work (restart 1 of 1): still wrong", "stuck: the completion review returned the work 2 times"} {
		if !strings.Contains(string(report), want) {
			t.Errorf("FINAL_REPORT.md lacks %q:\n%s", want, report)
		}
	}
	if strings.Contains(string(report), "No checks ran") {
		t.Errorf("a stuck run whose gate ran checks says none ran:\n%s", report)
	}
	if b := git(t, dir, "branch", "--list", "sentinel/*"); b != "" {
		t.Fatalf("a stuck run landed: %s", b)
	}
	if m := runMeta(t, dir); m[0].Status != "failed" || m[0].Recovery == "" {
		t.Fatalf("stuck run: %+v", m[0])
	}
}

func TestAdversaryFindingsReachTheCoder(t *testing.T) {
	dir := scratchRepo(t)
	scenario := filepath.Join(t.TempDir(), "gate.toml")
	writeFile(t, scenario, gateScenario)
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
	res := sentinel(t, dir, nil, "run", "--coder", "demo", "--plain", "--scenario", scenario,
		"--supervisor", "openai", "--supervisor-url", srv.URL, "--supervisor-model", "fake", "add the feature")
	if res.code != 0 {
		t.Fatalf("exit %d: %s\n%s", res.code, res.stderr, res.stdout)
	}
	for _, want := range []string{"[ADVERSARY] probe: grep -q approved feature.txt", "[ADVERSARY] probe `grep -q approved feature.txt` failed (exit 1)", "[ADVERSARY] the adversarial tester's probes all passed"} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if n := strings.Count(res.stdout, "[SYSTEM] coder demo started"); n != 2 {
		t.Fatalf("the coder started %d times, want 2 (the finding sent it back)", n)
	}
	// The tester knew the task and the changed files, not how they were made.
	reqs := modelTurns(t, srv)
	adv := reqs[1].UserText()
	if !strings.Contains(adv, "add the feature") || !strings.Contains(adv, "feature.txt") || strings.Contains(adv, "done, honestly") || strings.Contains(adv, "diff --git") {
		t.Fatalf("the adversary's request:\n%s", adv)
	}
	handoff, _ := os.ReadFile(filepath.Join(dir, ".sentinel", "runs", lastRun(t, dir), "HANDOFF.md"))
	if !strings.Contains(string(handoff), "grep -q approved feature.txt") {
		t.Fatalf("the finding is not in the handoff:\n%s", handoff)
	}
}

func TestEverydayPresetSkipsTheCompletionGate(t *testing.T) {
	dir := scratchRepo(t)
	scenario := filepath.Join(t.TempDir(), "gate.toml")
	writeFile(t, scenario, gateScenario)
	srv, err := fakeopenai.Start(fakeopenai.Probe(), fakeopenai.Reply{Content: `{"verdict":"return","reason":"never","missing":["x"]}`})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	res := sentinel(t, dir, nil, "run", "--coder", "demo", "--plain", "--scenario", scenario, "--preset", "everyday",
		"--supervisor", "openai", "--supervisor-url", srv.URL, "--supervisor-model", "fake", "add the feature")
	if res.code != 0 || len(modelTurns(t, srv)) != 0 {
		t.Fatalf("exit %d, %d model requests: %s", res.code, len(modelTurns(t, srv)), res.stderr)
	}
	bad := sentinel(t, dir, nil, "run", "--coder", "demo", "--preset", "lazy", "x")
	if bad.code != 2 || !strings.Contains(bad.stderr, "--preset") {
		t.Fatalf("bad preset: %d %s", bad.code, bad.stderr)
	}
}

func TestACoderThatIgnoresSteeringIsRestartedWithTheEvidence(t *testing.T) {
	dir := scratchRepo(t)
	scenario := filepath.Join(t.TempDir(), "drift.toml")
	writeFile(t, scenario, `
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
	res := sentinel(t, dir, nil, "run", "--coder", "demo", "--plain", "--scenario", scenario, "--adversary-runs", "0", "--max-restarts", "1",
		"--supervisor", "openai", "--supervisor-url", srv.URL, "--supervisor-model", "fake", "add the feature")
	// The fresh coder repeats its predecessor's drift (the demo plays the
	// same scenario): findings are per coder generation, so it is steered
	// again, restarted again, and the run ends stuck instead of landing.
	if res.code != 1 || !strings.Contains(res.stderr, "stuck: the coder kept ignoring steering") {
		t.Fatalf("exit %d: %s\n%s", res.code, res.stderr, res.stdout)
	}
	if n := strings.Count(res.stdout, "[SYSTEM] coder demo started"); n != 2 {
		t.Fatalf("the coder started %d times, want 2:\n%s", n, res.stdout)
	}
	if n := strings.Count(res.stdout, "[SUPERVISOR] noticed (masked_exit): `go vet ./... || true`"); n != 2 {
		t.Fatalf("the drift was noticed %d times, want once per coder (2):\n%s", n, res.stdout)
	}
	if b := git(t, dir, "branch", "--list", "sentinel/*"); b != "" {
		t.Fatalf("a coder that kept drifting landed: %s", b)
	}
	if !strings.Contains(res.stdout, "Steering received:") {
		t.Fatal("the steering never reached the coder")
	}
	handoff, err := os.ReadFile(filepath.Join(dir, ".sentinel", "runs", lastRun(t, dir), "HANDOFF.md"))
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
	dir := scratchRepo(t)
	res := neverGoodEnough(t, dir, "--max-restarts", "0")
	if res.code != 1 || !strings.Contains(res.stderr, "stuck") {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	if n := strings.Count(res.stdout, "[SYSTEM] coder demo started"); n != 1 {
		t.Fatalf("the coder started %d times, want 1:\n%s", n, res.stdout)
	}

	bad := sentinel(t, dir, nil, "run", "--coder", "demo", "--plain", "--max-restarts", "-1", "anything")
	if bad.code != 2 || !strings.Contains(bad.stderr, "--max-restarts -1") {
		t.Fatalf("--max-restarts -1: exit %d: %s", bad.code, bad.stderr)
	}
}

// neverGoodEnough runs the demo coder in dir with a supervisor whose
// completion review returns the work every time.
func neverGoodEnough(t *testing.T, dir string, flags ...string) result {
	t.Helper()
	scenario := filepath.Join(t.TempDir(), "gate.toml")
	writeFile(t, scenario, gateScenario)
	srv, err := fakeopenai.Start(fakeopenai.Probe(), fakeopenai.Reply{Content: `{"verdict":"return","reason":"still wrong","missing":["everything"]}`})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	args := append([]string{"run", "--coder", "demo", "--plain", "--scenario", scenario, "--adversary-runs", "0"}, flags...)
	args = append(args, "--supervisor", "openai", "--supervisor-url", srv.URL, "--supervisor-model", "fake", "never good enough")
	return sentinel(t, dir, nil, args...)
}

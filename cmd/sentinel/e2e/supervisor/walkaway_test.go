package supervisor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/fakeopenai"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// walkAwayRepo is a repository whose test script fails.
func walkAwayRepo(t *testing.T) string {
	t.Helper()
	dir := e2etest.ScratchRepo(t)
	p := filepath.Join(dir, "test.sh")
	e2etest.WriteFile(t, p, "#!/bin/sh\necho 'FAIL: TestShout: got \"hi\", want \"HI!\"'\nexit 1\n")
	if err := os.Chmod(p, 0o755); err != nil {
		t.Fatal(err)
	}
	e2etest.Git(t, dir, "add", "test.sh")
	e2etest.Git(t, dir, "commit", "-qm", "a failing test")
	return dir
}

// Walk-away mode end to end: nobody at the terminal, a supervisor model on a
// fake server. Gray-zone requests are decided by the model with its reasons
// on the supervisor lane and in the coder's ears; the coder then hides a
// failing test behind `|| true` and says it is done. Even a model naive
// enough to allow that and accept the work cannot make the run accepted: it
// is steered, the clean-copy verification fails, and nothing lands.
func TestWalkAwayRunHidingAFailingTestNeverLands(t *testing.T) {
	t.Parallel()
	dir := walkAwayRepo(t)
	scenario := filepath.Join(t.TempDir(), "mask.toml")
	e2etest.WriteFile(t, scenario, `
[[steps]]
shell = "frobnicate --fix"
[[steps]]
shell = "mytool deploy --prod"
[[steps]]
shell = "./test.sh || true"
[[steps]]
write = "shout.txt"
content = "HI!\n"
[[steps]]
done = "all tests pass"
`)
	model, err := fakeopenai.Start(fakeopenai.Probe(),
		fakeopenai.Reply{Content: `{"decision":"allow","reason":"frobnicate is the project's fixer, part of the task","risk":"low"}`},
		fakeopenai.Reply{Content: `{"decision":"deny","reason":"deploying is not part of adding a Shout function","risk":"high"}`},
		// `./test.sh || true` is the project's own code: inside the sandbox
		// the policy runs it without asking (steering still catches the mask).
		fakeopenai.Reply{Content: `{"verdict":"accept","reason":"looks done","missing":[]}`},
	)
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close()
	res := e2etest.Sentinel(t, dir, nil, "run", "--coder", "demo", "--plain", "--scenario", scenario, "--adversary-runs", "0",
		"--max-restarts", "0", "--verify", "./test.sh",
		"--supervisor", "openai", "--supervisor-url", model.URL, "--supervisor-model", "fake", "add a Shout function")
	if res.Code == 0 {
		t.Fatalf("the run succeeded; a masked failing test must not land:\n%s", res.Stdout)
	}
	if br := e2etest.Git(t, dir, "branch", "--list", "sentinel/*"); br != "" {
		t.Fatalf("a branch landed: %s\n%s", br, res.Stdout)
	}
	for _, want := range []string{
		"judge: allow — frobnicate is the project's fixer",               // the supervisor lane, with the reason
		"judge: deny — deploying is not part of adding a Shout function", // …and a deny
		"deploying is not part of adding a Shout function",               // the coder was told why
		"hides the command's exit status",                                // steering about the masked status
		"Steering received",                                              // …reached the coder
	} {
		if !strings.Contains(res.Stdout, want) {
			t.Errorf("the run's output lacks %q", want)
		}
	}
	id := e2etest.LastRun(t, dir)
	var judged []string
	for _, j := range e2etest.ApprovalsOf(t, e2etest.RunEvents(t, dir, id)) {
		if j.Decision.By == "supervisor" {
			judged = append(judged, j.Request.Command+" → "+string(j.Decision.Outcome))
		}
	}
	if strings.Join(judged, "; ") != "frobnicate --fix → allow; mytool deploy --prod → deny" {
		t.Errorf("decided by the supervisor: %v", judged)
	}
	report, err := os.ReadFile(filepath.Join(dir, ".sentinel", "runs", id, "FINAL_REPORT.md"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(report), "| status | **landed** |") || !strings.Contains(string(report), "./test.sh") {
		t.Errorf("FINAL_REPORT.md does not show the failing check keeping the run from landing:\n%s", report)
	}
}

// The supervisor model failing is a deny, through the real binary: an
// answer that is garbage, and a hang past the timeout the project config
// or the flag sets. A server error, an empty answer and a refusal are
// errors of the same path (supervisor.ask) and denies there: supervisor's
// TestJudgeDecisionsFlowForBothAPIShapes and TestOpenAIRefusalIsADeny
// check them kind by kind, without a full run each.
func TestWalkAwayModelFailuresDeny(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		reply  fakeopenai.Reply
		reason string   // more of the deny's reason
		flags  []string // more run flags
	}{
		{name: "garbage", reply: fakeopenai.Reply{Content: "Sure! Go ahead."}},
		{name: "hang", reply: fakeopenai.Reply{Hang: true}, reason: "did not answer within 3s"}, // [supervisor] timeout from the project config
		{name: "hang past the flag's timeout", reply: fakeopenai.Reply{Hang: true}, reason: "did not answer within 2s", flags: []string{"--supervisor-timeout", "2s"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Each case is a run of its own (project, model); two of them
			// wait out a supervisor timeout, so they wait together.
			t.Parallel()
			dir := e2etest.ScratchRepo(t)
			e2etest.WriteFile(t, filepath.Join(dir, ".sentinel", "config.toml"), "[supervisor]\ntimeout = \"3s\"\n")
			scenario := filepath.Join(t.TempDir(), "gray.toml")
			e2etest.WriteFile(t, scenario, "[[steps]]\nshell = \"frobnicate --fix\"\n[[steps]]\ndone = \"ok\"\n")
			model, err := fakeopenai.Start(fakeopenai.Probe(), c.reply)
			if err != nil {
				t.Fatal(err)
			}
			defer model.Close()
			args := append([]string{"run", "--coder", "demo", "--plain", "--scenario", scenario, "--preset", "everyday",
				"--supervisor", "openai", "--supervisor-url", model.URL, "--supervisor-model", "fake"}, c.flags...)
			res := e2etest.Sentinel(t, dir, nil, append(args, "fix things")...)
			js := e2etest.ApprovalsOf(t, e2etest.RunEvents(t, dir, e2etest.LastRun(t, dir)))
			if len(js) != 1 || js[0].Decision.Allowed() || js[0].Decision.By != "supervisor" ||
				!strings.Contains(js[0].Decision.Reason, "the supervisor could not judge this request") ||
				!strings.Contains(js[0].Decision.Reason, c.reason) {
				t.Fatalf("want one deny by the supervisor saying it could not judge:\n%s\n%s", e2etest.Describe(js), res.Stdout)
			}
			var failedTurn bool
			for _, ev := range e2etest.RunEvents(t, dir, e2etest.LastRun(t, dir)) {
				if ev.Lane == journal.Supervisor && strings.HasPrefix(ev.Text, "judge failed:") {
					failedTurn = true
				}
			}
			if !failedTurn {
				t.Error("the failed turn is not on the supervisor lane")
			}
		})
	}
}

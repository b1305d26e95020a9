package hostile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/fakeopenai"
)

// A model gate that cannot answer is a no. When the completion review or the
// adversarial tester answers nothing, a server error, an answer lacking its
// required fields, or hangs past the timeout, the unattended run does not
// land (it waits for `sentinel review`), nothing claims the probes passed,
// and FINAL_REPORT.md names the gate that failed and why.
//
// Each gate is run once with a failure of the model's transport and once
// with one of its answer: the runner holds the run on any error either gate
// returns (runner/gate.go), and every kind of unusable answer is an error of
// the one path both take (supervisor.ask, decodeObject), checked kind by
// kind in supervisor's TestJudgeDecisionsFlowForBothAPIShapes and
// TestAnswersLackingRequiredFieldsAreErrors. A full run costs seconds of
// CPU, so the kinds are not all repeated here.
func TestModelGatesThatCannotAnswerHoldTheRun(t *testing.T) {
	t.Parallel()
	accept := fakeopenai.Reply{Content: `{"verdict":"accept","reason":"looks done","missing":[]}`}
	cases := []struct {
		name    string
		replies []fakeopenai.Reply
		gate    string // as FINAL_REPORT.md names it
		reason  string // part of the reason it gives
	}{
		{"adversary empty", []fakeopenai.Reply{accept, {Content: ""}}, "adversarial tester", "empty"},
		{"adversary hang", []fakeopenai.Reply{accept, {Hang: true}}, "adversarial tester", "did not answer within 3s"},
		{"review 500", []fakeopenai.Reply{{Status: 500}}, "completion review", "500"},
		{"review lacking missing", []fakeopenai.Reply{{Content: `{"verdict":"accept","reason":"fine"}`}}, "completion review", `"missing"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := e2etest.ScratchRepo(t)
			e2etest.WriteFile(t, filepath.Join(dir, ".sentinel", "config.toml"), "[supervisor]\ntimeout = \"3s\"\n")
			scenario := filepath.Join(t.TempDir(), "gate.toml")
			e2etest.WriteFile(t, scenario, e2etest.GateScenario)
			srv, err := fakeopenai.Start(append([]fakeopenai.Reply{fakeopenai.Probe()}, c.replies...)...)
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			res := e2etest.Sentinel(t, dir, nil, "run", "--coder", "demo", "--plain", "--scenario", scenario,
				"--supervisor", "openai", "--supervisor-url", srv.URL, "--supervisor-model", "fake", "add the feature")
			id := e2etest.LastRun(t, dir)
			if b := e2etest.Git(t, dir, "branch", "--list", "sentinel/*"); b != "" {
				t.Fatalf("the run landed although the %s failed: %s\n%s", c.gate, b, res.Stdout)
			}
			if res.Code == 0 || !strings.Contains(res.Stderr, "sentinel review "+id) {
				t.Fatalf("exit %d, want a failure pointing at sentinel review: %s", res.Code, res.Stderr)
			}
			if strings.Contains(res.Stdout, "probes all passed") {
				t.Fatalf("a failed tester was reported as passing:\n%s", res.Stdout)
			}
			if n := strings.Count(res.Stdout, "[SYSTEM] coder demo started"); n != 1 {
				t.Fatalf("the coder started %d times; a gate's failure is not the coder's to fix", n)
			}
			if m := e2etest.RunMeta(t, dir); m[0].Status != "awaiting-review" || m[0].Recovery == "" {
				t.Fatalf("run after a failed gate: %+v", m[0])
			}
			report, err := os.ReadFile(filepath.Join(dir, ".sentinel", "runs", id, "FINAL_REPORT.md"))
			if err != nil {
				t.Fatal(err)
			}
			risks := string(report)[strings.Index(string(report), "## Remaining risks"):]
			if !strings.Contains(risks, "- "+c.gate+": failed (") || !strings.Contains(risks, c.reason) || strings.Contains(risks, "none found") {
				t.Fatalf("FINAL_REPORT.md's risks do not name the failed %s with %q:\n%s", c.gate, c.reason, risks)
			}
		})
	}
}

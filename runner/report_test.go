package runner

import (
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
)

func ev(lane journal.Lane, kind journal.Kind, text, data string) journal.Event {
	return journal.Event{Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Lane: lane, Kind: kind, Text: text, Data: []byte(data)}
}

func TestReportsListDecisionsChecksAndRisks(t *testing.T) {
	t.Parallel()
	evs := []journal.Event{
		ev(journal.Approval, "request", "shell: ls | wc", `{"id":"a-1","kind":"shell","command":"ls | wc"}`),
		ev(journal.Approval, "decision", "allowed: ls | wc (policy:read)", `{"request_id":"a-1","decision":"allow","by":"policy:read","reason":"read-only"}`),
		ev(journal.Approval, "request", "shell: rm -rf ~", `{"id":"a-2","kind":"shell","command":"rm -rf ~"}`),
		ev(journal.Approval, "decision", "denied: rm -rf ~", `{"request_id":"a-2","decision":"deny","by":"policy:rm","reason":"deletes home"}`),
		ev(journal.Tool, "result", "ls | wc → exit 0", `{}`),
	}
	m := &Meta{ID: "r1", Task: "t", Coder: "demo", Status: StatusLanded, Sandbox: "bwrap",
		Files: []string{"main.go", ".envrc", ".github/workflows/ci.yml"},
		Checks: []CheckResult{{Check: Check{Command: "go test ./...", Source: "detected"}, ExitCode: 2,
			Tail: "--- FAIL: TestShout\n    shout_test.go:9: got \"hi\", want \"HI\"\n```\n# forged heading"},
			{Check: Check{Command: "go vet ./...", Source: "detected"}, Tail: "passing output stays out"}},
		Landing: &Landing{Mode: ApplyBranch, Branch: "sentinel/r1", Commit: "abcdef0123456"}}
	dec := renderDecisions(m, evs)
	if !strings.Contains(dec, "| shell | `ls \\| wc` | allow | policy (read) |") || !strings.Contains(dec, "`rm -rf ~` | deny | policy (rm) | deletes home") {
		t.Fatalf("DECISIONS.md:\n%s", dec)
	}
	final := renderFinalReport(m, evs, FlaggedFiles(m.Files, nil))
	for _, want := range []string{"1 allowed, 1 denied", "| shell | `rm -rf ~` | policy (rm) | deletes home |", "`go test ./...` | detected | 2",
		"Branch `sentinel/r1`", "`.envrc` runs code later", "`.github/workflows/ci.yml` runs code later", "check `go test ./...` failed (exit 2)",
		"Output of `go test ./...` (exit 2, tail):\n\n```\n--- FAIL: TestShout\n    shout_test.go:9: got \"hi\", want \"HI\"\n'''\n# forged heading\n```\n"} {
		if !strings.Contains(final, want) {
			t.Errorf("FINAL_REPORT.md lacks %q:\n%s", want, final)
		}
	}
	if strings.Contains(final, "passing output stays out") {
		t.Error("a passing check's output is in the report")
	}
	if strings.Contains(final, "`main.go` runs code later") {
		t.Error("an ordinary file is flagged")
	}
	if strings.Contains(final, "WITHOUT a sandbox") {
		t.Error("a sandboxed run is reported as unsandboxed")
	}
	m.SandboxOff = true
	if off := renderFinalReport(m, evs, nil); !strings.Contains(off, "WITHOUT a sandbox") || !strings.Contains(off, "NOT sandboxed") {
		t.Errorf("--sandbox off is not in the report:\n%s", off)
	}
	prog := renderProgress(m, evs, m.Started.Add(time.Minute))
	if !strings.Contains(prog, "1 allowed, 1 denied") || !strings.Contains(prog, "ls | wc → exit 0") {
		t.Fatalf("PROGRESS.md:\n%s", prog)
	}
}

func TestDetectChecks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if c := DetectChecks(dir); len(c) != 0 {
		t.Fatalf("empty dir: %v", c)
	}
	write(t, dir+"/go.mod", "module x\n")
	write(t, dir+"/package.json", `{"scripts":{"test":"jest","lint":"eslint ."}}`)
	var cmds []string
	for _, c := range DetectChecks(dir) {
		cmds = append(cmds, c.Command+"/"+c.Source)
	}
	// The project's vet and lint are checked too, not only its tests.
	if strings.Join(cmds, ",") != "go test ./.../detected,go vet ./.../detected,npm test/detected,npm run lint/detected" {
		t.Fatalf("detected %v", cmds)
	}
	write(t, dir+"/package.json", `{"scripts":{"test":"echo \"Error: no test specified\" && exit 1"}}`)
	if len(DetectChecks(dir)) != 2 {
		t.Fatal("npm's placeholder test script counted as a check")
	}
}

// A coder whose own commands failed does not get "none found": its claim of
// success is named as a claim.
func TestFinalReportNamesTheCodersFailedCallsAsARisk(t *testing.T) {
	t.Parallel()
	m := &Meta{ID: "r1", Status: StatusLanded, Files: []string{"a.go"}, Checks: []CheckResult{{Check: Check{Command: "go test ./..."}}}}
	evs := []journal.Event{ev(journal.Tool, coderstream.ToolResult, "Bash: go vet ./... → exit 1", `{"failed":true,"exit_code":1}`)}
	report := renderFinalReport(m, evs, nil)
	if !strings.Contains(report, "1 of the coder's own tool calls failed") || strings.Contains(report, "none found") {
		t.Fatalf("the report does not name the failed call as a risk:\n%s", report)
	}
}

// Files the person left out in review are listed in the final report, as
// are the checks and gate verdicts of every attempt.
func TestFinalReportListsTheCourseOfTheRun(t *testing.T) {
	t.Parallel()
	m := &Meta{ID: "r1", Status: StatusLanded, Files: []string{"a.go"}}
	evs := []journal.Event{
		ev(journal.Tool, KindVerify, "verify: go test ./... → FAILED (exit 1)", `{"command":"go test ./...","exit_code":1,"duration_ms":1200}`),
		ev(journal.Supervisor, KindGate, "completion review returned the work (restart 1 of 5): no test", `{}`),
		ev(journal.Tool, KindVerify, "verify: go test ./... → passed", `{"command":"go test ./...","exit_code":0,"duration_ms":900}`),
		ev(journal.System, KindReviewApproved, "you approved part of the change: 1 of 3 file(s)", `{"files":["a.go"],"rejected":["b.go","deploy.sh"]}`),
	}
	report := renderFinalReport(m, evs, nil)
	for _, want := range []string{
		"| `go test ./...` | 1 | 1.2s |", "| `go test ./...` | 0 | 900ms |",
		"completion review returned the work (restart 1 of 5): no test",
		"## Rejected in review", "`b.go`: left out of the landing in review", "`deploy.sh`: left out",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("the final report lacks %q:\n%s", want, report)
		}
	}
	if got := without([]string{"a", "b", "c"}, []string{"b"}); strings.Join(got, ",") != "a,c" {
		t.Errorf("without = %v", got)
	}
}

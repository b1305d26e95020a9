package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/runner"
)

// What sentinel review prints while it re-verifies: the check, its elapsed
// time and last line, the result, and a failed check's output tail, with
// the check's own bytes made safe for the terminal.
func TestReviewProgressPrintsEachStep(t *testing.T) {
	var out bytes.Buffer
	say := reviewProgress(&out)
	c := runner.Check{Command: "go test ./...", Source: "detected"}
	say(journal.Tool, runner.KindVerifyStart, "verify: go test ./...", c)
	say(journal.System, runner.KindVerifyProgress, "", runner.CheckProgress{Command: c.Command, ElapsedMS: 4200, LastLine: "ok  pkg/a\x1b]52;c;eA==\x07"})
	say(journal.Tool, runner.KindVerify, "verify: go test ./... → FAILED (exit 1) in 5s", runner.CheckResult{Check: c, ExitCode: 1, Tail: "--- FAIL: TestX\nFAIL pkg/b"})
	say(journal.System, runner.KindVerifyResult, "verification failed: go test ./... exited 1 on a clean copy", nil)
	got := out.String()
	for _, want := range []string{"verifying on a clean copy: go test ./...", "  go test ./...: 4s — ok  pkg/a", "FAILED (exit 1)", "    | --- FAIL: TestX", "verification failed"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "\x1b") || strings.Contains(got, "\x07") {
		t.Errorf("a check's escape reached the terminal: %q", got)
	}
}

package runner

import (
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// The agent's error is the coder's text: in the result, the journal and
// the report it is one line with hidden characters spelled out.
func TestCoderFailedMakesTheAgentsErrorSafe(t *testing.T) {
	t.Parallel()
	hostile := "API Error: 400\x1b]52;c;cHduZWQ=\x07\n| status | **landed** |\u202e"
	f := coderFailed("codex", hostile)
	if f == nil {
		t.Fatal("no failure for an error")
	}
	for _, bad := range []string{"\x1b", "\x07", "\n", "\u202e"} {
		if strings.Contains(f.Error(), bad) {
			t.Errorf("the failure %q keeps %q", f.Error(), bad)
		}
	}
	if !strings.HasPrefix(f.Error(), "coder codex failed: API Error: 400") {
		t.Errorf("Error() = %q", f.Error())
	}
	if coderFailed("codex", " \n\t") != nil {
		t.Error("a blank error is a failure")
	}
	if r := coderFailed("x", strings.Repeat("é", 3*maxReason)); len([]rune(r.Reason)) > maxReason+1 {
		t.Errorf("the reason is %d runes long", len([]rune(r.Reason)))
	}
	m := &Meta{ID: "r1", Status: StatusFailed, Error: f.Error(), Started: time.Now(), Ended: time.Now()}
	rep := renderFinalReport(m, nil, nil)
	if strings.Contains(rep, "| status | **landed** |") || strings.Contains(rep, "\x1b") {
		t.Errorf("the agent's error forged a row or kept an escape in the report:\n%s", rep)
	}
}

func TestExitFailureIsTheLastLineOfOutput(t *testing.T) {
	t.Parallel()
	if got := exitFailure(0, "anything"); got != "" {
		t.Errorf("exit 0 is a failure: %q", got)
	}
	if got := exitFailure(7, "starting\r\n\x1b[31mno API key\x1b[0m\r\n\r\n"); got != "exited with status 7: no API key" {
		t.Errorf("exitFailure = %q", got)
	}
	if got := exitFailure(2, ""); got != "exited with status 2" {
		t.Errorf("exitFailure with no output = %q", got)
	}
}

func TestFinalReportCountsToolCalls(t *testing.T) {
	t.Parallel()
	one := 1
	evs := []journal.Event{
		{Lane: journal.Tool, Kind: "tool-result", Text: "ok", Data: approvals.ToolResult{ToolCallID: "a"}.Data()},
		{Lane: journal.Tool, Kind: "tool-result", Text: "make → exit 1", Data: approvals.ToolResult{ToolCallID: "b", ExitCode: &one, Failed: true}.Data()},
	}
	rep := renderFinalReport(&Meta{ID: "r1", Status: StatusLanded}, evs, nil)
	if !strings.Contains(rep, "2 tool calls, 1 failed.") || !strings.Contains(rep, "- make → exit 1") {
		t.Errorf("the report does not count and list the failed call:\n%s", rep)
	}
}

package runner

import (
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// Every gate that failed is in FINAL_REPORT.md's risks with its reason: the
// held gates, a relay that fell back to the person's words, the judge's
// failed turns (each a deny) and a forced landing. "none found" never
// follows a failed gate.
func TestFinalReportNamesEveryFailedGate(t *testing.T) {
	t.Parallel()
	evs := []journal.Event{
		ev(journal.Adversary, "gate-failed", "adversarial tester: failed (x)", `{"gate":"adversarial tester","reason":"the model gave no usable probes: the answer is empty"}`),
		ev(journal.Supervisor, "gate-failed", "completion review: failed (x)", `{"gate":"completion review","reason":"openai: 500"}`),
		ev(journal.Supervisor, "relay-failed", "relay failed", `{"gate":"relay","reason":"timeout; your message went to the coder as typed"}`),
		ev(journal.Supervisor, "judge", "judge failed: x", `{"role":"judge","error":"the answer is not a JSON object"}`),
		ev(journal.Supervisor, "judge", "judge failed: y", `{"role":"judge","error":"the supervisor model did not answer within 3s"}`),
		ev(journal.Supervisor, "judge", "judge: allow", `{"role":"judge","decision":"allow","reason":"fine"}`),
		ev(journal.System, "gate-failed", "forced", `{"gate":"verification before landing","reason":"run r1 was interrupted before its change passed verification; no check ran on this change"}`),
	}
	m := &Meta{ID: "r1", Status: StatusLanded}
	report := renderFinalReport(m, evs, nil)
	risks := report[strings.Index(report, "## Remaining risks"):]
	for _, want := range []string{
		"- adversarial tester: failed (the model gave no usable probes: the answer is empty)",
		"- completion review: failed (openai: 500)",
		"- relay: failed (timeout; your message went to the coder as typed)",
		"- supervisor judge: failed 2 time(s), each a deny (last: the supervisor model did not answer within 3s)",
		"- landed WITHOUT verification (--force): run r1 was interrupted",
	} {
		if !strings.Contains(risks, want) {
			t.Errorf("risks lack %q:\n%s", want, risks)
		}
	}
	if strings.Contains(risks, "none found") {
		t.Errorf("a report with failed gates says none found:\n%s", risks)
	}
}

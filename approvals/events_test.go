package approvals

import (
	"encoding/json"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/policy"
)

func TestTheDecodersReadOnlyTheBrokersOwnEvents(t *testing.T) {
	ev := func(lane journal.Lane, kind journal.Kind, data any) journal.Event {
		b, _ := json.Marshal(data)
		return journal.Event{Lane: lane, Kind: kind, Data: b}
	}
	deny := Decision{RequestID: "r1", Outcome: OutcomeDeny, By: "person"}
	if d, ok := AsDecision(ev(journal.Approval, "decision", deny)); !ok || d.Allowed() || d.RequestID != "r1" {
		t.Errorf("AsDecision of the broker's decision = %+v, %v", d, ok)
	}
	// The same payload on another lane or under another kind is not a decision.
	for _, e := range []journal.Event{ev(journal.Tool, "decision", deny), ev(journal.Approval, "request", deny)} {
		if _, ok := AsDecision(e); ok {
			t.Errorf("AsDecision read %s/%s", e.Lane, e.Kind)
		}
	}
	if _, ok := AsDecision(journal.Event{Lane: journal.Approval, Kind: KindDecision, Data: []byte(`{"decision":7}`)}); ok {
		t.Error("AsDecision read a payload that does not decode")
	}
	req := RequestEvent{Request: Request{ID: "r1", Kind: "shell", Command: "make"}, Verdict: &VerdictSummary{Decision: policy.Ask}}
	if r, ok := AsRequest(ev(journal.Approval, "request", req)); !ok || r.Command != "make" || r.Verdict == nil || r.Verdict.Decision != policy.Ask {
		t.Errorf("AsRequest = %+v, %v", r, ok)
	}
	rep := ReportEvent{Report{Lane: "tool", Kind: "tool-result", Text: "ok"}, ReportedByCoder}
	if r, ok := AsReport(ev(journal.Tool, "tool-result", rep)); !ok || r.Text != "ok" {
		t.Errorf("AsReport = %+v, %v", r, ok)
	}
	// A report kind on a lane the broker takes no reports on, or an event
	// not marked as the coder's, is not a report.
	for _, e := range []journal.Event{ev(journal.System, "tool-result", rep), ev(journal.Tool, "tool-result", Report{Text: "x"}), ev(journal.Tool, "decision", rep)} {
		if _, ok := AsReport(e); ok {
			t.Errorf("AsReport read %s/%s %s", e.Lane, e.Kind, e.Data)
		}
	}
}

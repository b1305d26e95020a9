package codex

import (
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	fr "github.com/sentinelhq/sentinel/internal/fakeresponses"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// The real Codex whose model server refuses the request: its turn fails
// and Failure carries Codex's own error.
func TestFailedTurnGivesCodexsOwnError(t *testing.T) {
	const why = "provider-misconfigured-e2e"
	w := newWorld(t, fr.Script{fr.Fail(400, why), fr.Fail(400, why), fr.Fail(400, why)}, approveAll())
	s := w.run(t, "do something")
	if got := s.Status(); got != "failed" {
		t.Errorf("turn status = %q, want failed", got)
	}
	if f := s.Failure(); !strings.Contains(f, why) {
		t.Errorf("Failure() = %q, want Codex's error carrying %q", f, why)
	}
}

// A turn that completes is no failure, even with nothing changed; a
// command of it that exits non-zero is a failed tool call, as data.
func TestCompletedTurnWithAFailedCommand(t *testing.T) {
	w := newWorld(t, fr.Script{
		fr.Reply(fr.ExecCommand("sh ./fail.sh", "")),
		fr.Turn{When: fr.AfterOutput, Items: []fr.Item{fr.Text("It failed; done.")}},
	}, approveAll())
	script(t, w, "fail.sh", "echo nope >&2; exit 3")
	s := w.run(t, "run the script")
	if f := s.Failure(); s.Status() != "completed" || f != "" {
		t.Errorf("status %q, Failure() = %q; want completed and none", s.Status(), f)
	}
	var failed []journal.Event
	for _, l := range w.got() {
		ev := journal.Event{Lane: l.Lane, Kind: l.Kind, Text: l.Text, Data: l.Data}
		if _, bad := approvals.ToolOutcome(ev); bad {
			failed = append(failed, ev)
		}
	}
	if len(failed) != 1 || !strings.Contains(failed[0].Text, "exit 3") {
		t.Errorf("failed tool results = %+v, want the script's exit 3", failed)
	}
}

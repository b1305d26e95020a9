package runner

import (
	"path/filepath"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// liveReport is what PROGRESS.md and DECISIONS.md are rendered from while a
// run is live, kept as events arrive: the events those reports read (the
// approval lane, the person's standing decisions) and the latest activity.
// Everything else (the coder's output above all) passes through without
// being kept, so a coder that prints for hours costs the reports nothing.
type liveReport struct {
	kept  []journal.Event // approval-lane and standing-decision events, in order
	tail  []journal.Event // the newest latestActivity activity events
	dirty bool            // something the reports show changed since the last write
}

// observe takes one event of the run.
func (l *liveReport) observe(ev journal.Event) {
	if ev.Is(journal.Approval, approvals.KindRequest) || ev.Is(journal.Approval, approvals.KindDecision) ||
		ev.Is(journal.Supervisor, KindStanding) {
		l.kept = append(l.kept, ev)
		l.dirty = true
	}
	if _, ok := activityLine(ev); ok {
		if len(l.tail) == latestActivity {
			copy(l.tail, l.tail[1:])
			l.tail = l.tail[:latestActivity-1]
		}
		l.tail = append(l.tail, ev)
		l.dirty = true
	}
}

// events is what the live reports are rendered from: every kept event and
// the latest activity, in journal order (each report picks its own).
func (l *liveReport) events() []journal.Event {
	out := make([]journal.Event, 0, len(l.kept)+len(l.tail))
	i, k := 0, 0
	for i < len(l.kept) || k < len(l.tail) {
		switch {
		case k == len(l.tail), i < len(l.kept) && l.kept[i].Seq < l.tail[k].Seq:
			out = append(out, l.kept[i])
			i++
		case i < len(l.kept) && l.kept[i].Seq == l.tail[k].Seq:
			out = append(out, l.kept[i]) // a standing decision is activity too
			i, k = i+1, k+1
		default:
			out = append(out, l.tail[k])
			k++
		}
	}
	return out
}

// retained is how many events the keeper holds.
func (l *liveReport) retained() int { return len(l.kept) + len(l.tail) }

// readRecord reads a run's journal for its records (meta, reports, commit
// message, decisions): every event except the coder's raw output, which no
// record reads and which is most of a long run's journal.
func readRecord(dir string) ([]journal.Event, error) {
	return journal.ReadFileWhere(filepath.Join(dir, "events.jsonl"), notCoderOutput)
}

// notCoderOutput keeps every event but the coder's raw output.
func notCoderOutput(ev *journal.Event) bool { return !ev.Is(journal.Coder, coderstream.Output) }

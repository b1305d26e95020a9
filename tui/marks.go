package tui

// This file is where in the journal a pane's older lines start, so reading
// them back (history.go) starts near them instead of at the journal's first
// event: on a 10M-line run a scroll to an old page would otherwise replay
// the whole journal up to it.

import "github.com/sentinelhq/sentinel/internal/journal"

// mark says that a pane's line number line is the first one made by the
// events after the one with seq after, no coder line being half made then
// (a replay from there makes the same lines, numbered from line).
type mark struct{ line, after int64 }

// maxMarks bounds the marks a pane keeps: past it every other one is
// dropped and they are kept twice as far apart, so their memory stays
// bounded however long the run is (a read-back then replays at most
// markEvery lines' worth of events before its page).
const maxMarks = 1024

// marks are a pane's, oldest first, at least every lines apart.
type marks struct {
	at    []mark
	every int64
}

// note records a mark for the lines added after the event with seq when
// they are every lines past the newest mark.
func (ms *marks) note(total, seq int64) {
	if ms.every == 0 {
		ms.every = olderPageLines
	}
	last := int64(0)
	if n := len(ms.at); n > 0 {
		last = ms.at[n-1].line
	}
	if seq <= 0 || total-last < ms.every {
		return
	}
	ms.at = append(ms.at, mark{line: total, after: seq})
	if len(ms.at) > maxMarks {
		kept := ms.at[:0]
		for i := 1; i < len(ms.at); i += 2 {
			kept = append(kept, ms.at[i])
		}
		clear(ms.at[len(kept):])
		ms.at, ms.every = kept, 2*ms.every
	}
}

// before is the newest mark at or before line (the zero mark, the journal's
// start, when there is none).
func (ms *marks) before(line int64) mark {
	best := mark{}
	for _, m := range ms.at { // at most maxMarks, once a read-back
		if m.line > line {
			break
		}
		best = m
	}
	return best
}

// markPanes notes, after an event, where each pane's next lines start; only
// when no coder line is half made, so a replay from there agrees.
func (m *model) markPanes(ev journal.Event) {
	if m.coderPartial != "" {
		return
	}
	for _, p := range m.panes {
		p.marks.note(p.lines.total, ev.Seq)
	}
}

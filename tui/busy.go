package tui

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/runner"
)

// busy is a long wait the person should see is alive: a check running on
// the clean copy (verification, or the adversary's probes), or the
// completion review or the adversarial tester waiting for a model.
type busy struct {
	what  string       // what is being waited for, one safe line
	since time.Time    // when the wait began, on the TUI's clock
	last  string       // the check's last output line, one safe line
	lane  journal.Lane // a model wait ends at the next event on this lane
	step  string       // a wait said only by progress (no check started): which
}

// spinner frames, one a second (the TUI's tick); stillMark instead with
// Options.ReduceMotion (the elapsed seconds beside it still move).
var spinner = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

const stillMark = "•"

// trackBusy follows the waits ev starts or ends; it reports whether ev is
// only a sign of life (a check's progress), which the spinner line shows
// instead of a lane line.
func (m *model) trackBusy(ev journal.Event) bool {
	switch {
	case ev.Is(journal.Tool, runner.KindVerifyStart):
		var c runner.Check
		_ = json.Unmarshal(ev.Data, &c)
		m.busy = &busy{what: "verifying " + textsafe.Line(c.Command), since: m.opts.Now(), lane: journal.Tool}
	case ev.Is(journal.Tool, runner.KindVerify), ev.Is(journal.System, runner.KindRunEnd):
		m.busy = nil
	case ev.Kind == runner.KindAwaitModel:
		m.busy = &busy{what: textsafe.Line(ev.Text), since: m.opts.Now(), lane: ev.Lane}
	default:
		if p, ok := runner.AsCheckProgress(ev); ok {
			if m.busy == nil || (m.busy.step != "" && m.busy.step != p.Command) {
				// a wait before any check starts (the patch, the clean
				// copy, the Go build cache seed) or after (the landing)
				m.busy = &busy{what: textsafe.Line(p.Command), since: m.opts.Now().Add(-p.Elapsed()), lane: journal.Tool, step: p.Command}
			}
			m.busy.last = textsafe.TermLine(p.LastLine)
			return true
		}
		if m.busy != nil && m.busy.step != "" {
			m.busy = nil // such a wait ends with the step's own line
			return false
		}
		if m.busy != nil && m.busy.lane != journal.Tool && ev.Lane == m.busy.lane {
			m.busy = nil
		}
	}
	return false
}

// busyLine is the spinner line for the current wait, w cells wide: what is
// being waited for, for how long, and the last line the check printed.
func (m *model) busyLine(w int) string {
	b := m.busy
	if b == nil {
		return ""
	}
	d := max(m.opts.Now().Sub(b.since), 0).Truncate(time.Second)
	mark := spinner[int(d.Seconds())%len(spinner)]
	if m.opts.ReduceMotion {
		mark = stillMark
	}
	s := fmt.Sprintf(" %s %s · %s", mark, b.what, d)
	if b.last != "" {
		s += " · " + b.last
	}
	if ansi.StringWidth(s) > w {
		s = ansi.Truncate(s, w, "…")
	}
	return padTo(m.styles.Asked.UnsetBackground().Render(s), w)
}

package tui

import (
	"encoding/json"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/runner"
)

// trackEnd makes the run's end say what happened: "no changes" for a run
// that changed nothing, and for one that landed, where its work is and how
// to leave.
func (m *model) trackEnd(ev journal.Event) {
	switch {
	case ev.Is(journal.System, runner.KindLanded):
		var l runner.Landing
		if json.Unmarshal(ev.Data, &l) == nil {
			m.landing = &l
		}
	case ev.Is(journal.System, runner.KindRunEnd):
		d, _ := runner.AsRunEnd(ev)
		if d.Status != runner.StatusLanded || m.landing == nil {
			return
		}
		switch {
		case runner.EndWord(d.Status, m.landing) == runner.NoChanges:
			m.runStatus = textsafe.Line(firstNonEmpty(d.State, runner.NoChanges))
		case m.landing.Branch != "":
			m.flash = "landed on " + textsafe.Line(m.landing.Branch) + " — q to quit"
		}
	}
}

package tui

import (
	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/themes"
)

// Messages delivered to the program by Run's forwarders and by commands.
type (
	// eventsMsg is a frame's worth of journal events, coalesced.
	eventsMsg []journal.Event
	// promptMsg is a request waiting for the person.
	promptMsg struct{ p *approvals.Prompt }
	// runDoneMsg says the run has finished.
	runDoneMsg struct{}
	// stoppedMsg says Stop has returned and the run is done (or gave up waiting).
	stoppedMsg struct{}
	// pastMsg carries earlier requests for the remember chooser's preview.
	pastMsg []approvals.Request
	// themesMsg carries user themes reloaded after a file changed.
	themesMsg struct {
		palettes map[string]themes.Palette
		errs     []error
	}
	// screenMsg says the full-screen coder's screen changed.
	screenMsg struct{}
	// tickMsg redraws the elapsed time.
	tickMsg struct{}
	// armMsg redraws a card when its key guard has passed.
	armMsg struct{}
	// errMsg is a failure from a command, shown on the footer.
	errMsg struct{ err error }
)

package tui

// The console shows the run of the card on screen: the card is what the
// person answers, so the status bar, the lanes and the "always" preview of
// past requests are that run's, and picking another run waits until the
// cards are answered. Changing the run shown rebuilds the lanes' model,
// never what the person is doing with the cards.

import (
	tea "charm.land/bubbletea/v2"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/approvals/queue"
)

// followCard selects the run of the card on screen when another is
// selected; it reports whether it did.
func (p *consolePage) followCard() bool {
	if !p.m.cardVisible() {
		return false
	}
	key := p.runOf[p.m.queue[0]]
	if key == "" || key == p.sel {
		return false
	}
	p.selectRun(key)
	return true
}

// take is what the person decided: the model's, and those of a model
// selectRun replaced first. The console then follows the card now on
// screen (an answer may have brought another run's card up), after the
// decisions are out of the model it replaces.
func (p *consolePage) take() []tea.Msg {
	out := append(p.carry, p.m.take()...)
	p.carry = nil
	p.followCard()
	return out
}

// pickRunRefused says why < and > do not pick a run: a card waits, and
// the console shows the run it came from until it is answered.
func (p *consolePage) pickRunRefused() string {
	if p.m.cardVisible() {
		return "a card waits: the console shows its run until it is answered"
	}
	return ""
}

// keepCards carries over from old, the model for the run shown before,
// the queue as the person sees it and what they are doing with its head:
// the card's key guard, how far its content was scrolled and seen, the
// remember chooser, a reason being typed, the notice. A model rebuilt for
// another run under a card on screen had re-armed the guard and lost the
// scroll, so a ] pressed then was dropped (#37, 60×15).
func (m *model) keepCards(old *model) {
	m.queue = append([]*approvals.Prompt(nil), old.queue...)
	m.cardOpened, m.cardContent, m.cardClipped, m.chooser = old.cardOpened, old.cardContent, old.cardClipped, old.chooser
	m.mode, m.edit, m.helpScroll, m.view = old.mode, old.edit, old.helpScroll, old.view
	m.flash, m.lastRing = old.flash, old.lastRing
}

// runKnown gives the model the status of the run it shows once the
// service lists it (a card can arrive before its run's first report).
func (m *model) runKnown(r queue.RunStatus) {
	s := consoleSession{run: r}
	if m.info.RunID == r.Run && m.info.Started.Equal(r.Started) {
		return
	}
	m.s, m.info = s, s.Info()
	m.pastLoaded = false
}

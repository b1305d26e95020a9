package tui

import (
	"github.com/sentinelhq/sentinel/approvals"
)

// updatePreview recomputes, when the selection or the past requests changed,
// which earlier requests the chosen breadth would have covered. It asks the
// run's own approval chain (Options.Preview), never an engine of its own, so
// the preview agrees with what the broker would decide. It runs in Update:
// the preview does no I/O.
func (m *model) updatePreview() {
	c := m.chooser
	if c == nil || !m.pastLoaded || len(c.options) == 0 || c.coveredSel == c.sel {
		return
	}
	req := c.prompt.Request
	spec := approvals.GrantSpec{Scope: scopes[c.scope], Match: c.options[c.sel].match}
	// the request on the card is already in the journal: it is not "earlier"
	past := make([]approvals.Request, 0, len(m.past))
	for _, r := range m.past {
		if req.ID == "" || r.ID != req.ID {
			past = append(past, r)
		}
	}
	c.earlier = len(past)
	c.coveredSel = c.sel
	c.covered = nil
	if m.opts.Preview != nil {
		c.covered = m.opts.Preview(spec, past)
	}
}

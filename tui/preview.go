package tui

import (
	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/policy"
)

// updatePreview recomputes, when the selection or the past requests changed,
// which earlier requests the chosen breadth would have covered. It runs in
// Update: approvals.Preview only asks the (pure) policy engine, no I/O.
func (m *model) updatePreview() {
	c := m.chooser
	if c == nil || !m.pastLoaded || len(c.options) == 0 || c.coveredSel == c.sel {
		return
	}
	if m.engine == nil {
		m.engine = policy.Default()
	}
	req := c.prompt.Request
	ws := m.info.Workspace
	if ws == "" {
		ws = req.Cwd
	}
	ctx := policy.Context{Workspace: ws, Cwd: req.Cwd}
	spec := approvals.GrantSpec{Scope: scopes[c.scope], Match: c.options[c.sel].match}
	// the request on the card is already in the journal: it is not "earlier"
	past := make([]approvals.Request, 0, len(m.past))
	for _, r := range m.past {
		if req.ID == "" || r.ID != req.ID {
			past = append(past, r)
		}
	}
	c.earlier = len(past)
	c.covered, c.coveredSel = approvals.Preview(spec, past, ctx, m.engine), c.sel
}

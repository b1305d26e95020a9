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
	ctx := policy.Context{Workspace: req.Cwd, Cwd: req.Cwd}
	spec := approvals.GrantSpec{Scope: scopes[c.scope], Match: c.options[c.sel].match}
	c.covered, c.coveredSel = approvals.Preview(spec, m.past, ctx, m.engine), c.sel
}

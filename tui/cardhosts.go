package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// fetchNeeds is the card's "needs" line for a package install: the
// registry hosts it will fetch from (the broker found them, policy.FetchHosts),
// which h allows with it for this run. Empty for any other request.
func fetchNeeds(p *approvals.Prompt) string {
	if p.Fetch == nil || len(p.Fetch.Hosts) == 0 {
		return ""
	}
	return textsafe.Line(strings.Join(p.Fetch.Hosts, ", ")) + " (" + textsafe.Line(p.Fetch.Ecosystem) + " registry; h approves with them for this run)"
}

// approveWithHosts answers h: approve once and allow the install's hosts.
// On a card that needs no host it says so and answers nothing.
func (m *model) approveWithHosts(p *approvals.Prompt) tea.Cmd {
	if p.Fetch == nil || len(p.Fetch.Hosts) == 0 {
		m.flash = "this request fetches from no known registry: a approves once, d denies"
		return nil
	}
	m.flash = "approved; " + textsafe.Line(strings.Join(p.Fetch.Hosts, ", ")) + " allowed for this run"
	return m.answer(ApproveMsg{Prompt: p, WithHosts: true})
}

// cardBindings are the card's key row: h first when the request is a
// package install with hosts to allow.
func (m *model) cardBindings() []key.Binding {
	bs := m.keys.cardHelp()
	if len(m.queue) > 0 && fetchNeeds(m.queue[0]) != "" {
		bs = append([]key.Binding{m.keys.Approve, m.keys.ApproveHosts}, bs[1:]...)
	}
	return bs
}

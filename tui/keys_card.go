package tui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// cardTable is the keys of a visible approval card (Claude Code's 1/2/3
// beside Sentinel's letters). An answer is a decision in the outbox
// (ApproveMsg, DenyMsg, RememberMsg) for the root to apply: the card never
// answers a prompt itself. Nothing is approved unseen: every approving row
// is disabled until the whole card and all of its change has been shown.
func (k keyMap) cardTable() keyTable[*model] {
	unseen := func(m *model) string {
		if !m.cardSeen() {
			return m.unseenNotice()
		}
		return ""
	}
	approve := func(m *model, _ tea.KeyPressMsg) tea.Cmd { return m.answer(ApproveMsg{Prompt: m.queue[0]}) }
	deny := act((*model).openDenyMsg)
	return keyTable[*model]{name: "card", rows: []keyRow[*model]{
		{key: k.Approve, do: approve, disabled: unseen, group: 3, legend: 1},
		{key: k.ApproveHosts, do: func(m *model, _ tea.KeyPressMsg) tea.Cmd { return m.approveWithHosts(m.queue[0]) }, disabled: unseen, group: 3},
		{key: k.Remember, do: (*model).openChooser, disabled: unseen, group: 3, legend: 2},
		{key: k.Deny, do: deny, group: 3, legend: 3},
		{key: k.Skip, do: func(m *model, _ tea.KeyPressMsg) tea.Cmd { return m.skip() }, group: 3, legend: 4},
		// a confirmation that names the count first
		{key: k.DenyKind, do: act(func(m *model) { m.mode = modeDenyAll }), group: 3},
		{key: k.ClaudeYes, do: approve, disabled: unseen, group: 3},
		{key: k.ClaudeAlways, do: (*model).rememberAtOnce, group: 3, disabled: func(m *model) string {
			if why := unseen(m); why != "" {
				return why
			}
			if newChooser(m.queue[0]).spec() == nil {
				return "nothing to remember for this kind of request: approve once (a) or deny (d)"
			}
			return ""
		}},
		{key: k.ClaudeNo, do: deny, group: 3},
		{key: k.ClaudeKeys, summary: true, legend: 5},
		{key: k.ContentUp, do: act(func(m *model) { m.scrollContent(-1) }), group: 3},
		{key: k.ContentDown, do: act(func(m *model) { m.scrollContent(1) }), group: 3},
		{key: k.ContentPageUp, do: act(func(m *model) { m.pageContent(-1) }), group: 3},
		{key: k.ContentPageDown, do: act(func(m *model) { m.pageContent(1) }), group: 3},
		{key: k.ContentTop, do: act(func(m *model) { m.content().scroll = 0 }), group: 3},
		{key: k.ContentEnd, do: act(func(m *model) { m.scrollContent(contentEnd) }), group: 3},
		// Esc is "back" everywhere else (a search, a message, help): on a
		// card it is never an answer, and says so.
		{key: k.CardEsc, do: act(func(m *model) {
			m.flash = "esc does not answer a card: d or 3 denies, a or 1 approves"
		}), told: "its own flash, when pressed"},
	}}
}

// cardUnbound answers a key that neither the card nor the lanes use: it
// says so (Enter and y never approve).
func (m *model) cardUnbound(k tea.KeyPressMsg) {
	m.flash = fmt.Sprintf("%s does nothing on a card: a or 1 approves, 2 approves and remembers, d or 3 denies", textsafe.Line(k.String()))
	if ansi.StringWidth(m.flash)+1 > m.width {
		m.flash = fmt.Sprintf("%s does nothing here: 1 yes · 2 always · 3 no", textsafe.Line(k.String()))
	}
}

func (m *model) openDenyMsg() {
	m.mode = modeDenyMsg
	m.edit.open("message for the coder (enter denies, esc goes back): ")
}

// openChooser opens the remember chooser for the card on screen.
func (m *model) openChooser(tea.KeyPressMsg) tea.Cmd {
	m.chooser = newChooser(m.queue[0])
	m.mode = modeRemember
	m.updatePreview()
	if !m.pastLoaded {
		s := m.s
		return func() tea.Msg { return pastMsg(s.PastRequests()) }
	}
	return nil
}

// rememberAtOnce is Claude Code's 2: remember at once, the narrowest
// breadth at the default scope.
func (m *model) rememberAtOnce(tea.KeyPressMsg) tea.Cmd {
	head := m.queue[0]
	spec := newChooser(head).spec()
	m.flash = "approved; " + scopeWhere(spec.Scope)
	return m.answer(RememberMsg{Prompt: head, Grant: spec})
}

// chooserTable is the remember chooser's keys (its key row is the legend).
func (k keyMap) chooserTable() keyTable[*model] {
	return keyTable[*model]{name: "remember", rows: []keyRow[*model]{
		{key: k.Breadth, do: func(m *model, kp tea.KeyPressMsg) tea.Cmd {
			m.chooser.move(kp.String() == "down" || kp.String() == "j")
			m.updatePreview()
			return nil
		}, legend: 1},
		{key: k.Scope, do: act(func(m *model) { c := m.chooser; c.scope = (c.scope + 1) % (c.maxScope() + 1) }), group: 3, legend: 2},
		{key: k.Expiry, do: act(func(m *model) { c := m.chooser; c.expiry = (c.expiry + 1) % len(expiries) }), group: 3, legend: 3},
		{key: k.Confirm, do: func(m *model, _ tea.KeyPressMsg) tea.Cmd {
			return m.answer(RememberMsg{Prompt: m.chooser.prompt, Grant: m.chooser.spec()})
		}, group: 3, legend: 4, disabled: func(m *model) string {
			if m.chooser.spec() == nil {
				return "nothing to remember for this kind of request: approve once or deny"
			}
			return ""
		}},
		{key: k.Back, do: act(func(m *model) { m.chooser, m.mode = nil, modeNormal }), legend: 5},
	}}
}

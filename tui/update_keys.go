package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// stopWait bounds how long quitting waits for the run to finish after Stop.
const stopWait = 10 * time.Second

// key handles a key that passed the root's guard (a card or review that
// just opened ignores keys; attach mode has none): the mode picks the
// table (keys_lanes.go, keys_card.go, keys_review.go) whose row runs; a
// disabled row's reason goes on the footer.
func (m *model) key(k tea.KeyPressMsg) tea.Cmd {
	// Attach mode: every key but the leave key goes to the coder, encoded for
	// its terminal. Nothing else ever sends a key to the coder.
	if m.mode == modeAttach {
		return m.keyIn(m.keys.attachTable(), k, func() { m.term.key(k) })
	}
	if m.stopping {
		if cmd, _, ok := m.keys.stoppingTable().dispatch(m, k); ok {
			return cmd
		}
	}
	back := func() { m.mode = modeNormal } // a confirmation's other keys close it
	switch m.mode {
	case modeHelp:
		return m.keyIn(m.keys.helpTable(), k, nil)
	case modeQuit:
		return m.keyIn(m.keys.quitTable(), k, nil)
	case modeDenyAll:
		return m.keyIn(m.keys.denyAllTable(), k, back)
	case modeFinish:
		return m.keyIn(m.keys.finishTable(), k, back)
	case modeSearch, modeSteer, modeDenyMsg:
		return m.keyIn(m.keys.editTable(), k, func() { m.edit.key(k) })
	case modeRemember:
		return m.keyIn(m.keys.chooserTable(), k, nil)
	}
	lanes := m.keys.lanesTable(m.idle())
	if m.cardVisible() {
		if cmd, why, ok := m.keys.cardTable().dispatch(m, k); ok {
			return m.refused(cmd, why)
		}
		if m.review == nil && !lanes.has(k) {
			m.cardUnbound(k)
			return nil
		}
	}
	if m.review != nil {
		return m.reviewKey(k)
	}
	return m.keyIn(lanes, k, nil)
}

// keyIn runs t's row for k, or other (if any) when t has none.
func (m *model) keyIn(t keyTable[*model], k tea.KeyPressMsg, other func()) tea.Cmd {
	cmd, why, ok := t.dispatch(m, k)
	if !ok && other != nil {
		other()
	}
	return m.refused(cmd, why)
}

// refused puts a disabled key's reason on the footer.
func (m *model) refused(cmd tea.Cmd, why string) tea.Cmd {
	if why != "" {
		m.flash = why
	}
	return cmd
}

func toggle(cur, v viewMode) viewMode {
	if cur == v {
		return viewLanes
	}
	return v
}

// activePane is the pane that scrolling and search act on.
func (m *model) activePane() *pane {
	if m.view == viewTimeline {
		return m.panes[paneTimeline]
	}
	return m.panes[m.focus]
}

func (m *model) paneRows(id paneID) int {
	r, ok := m.layout().rect(id)
	if !ok {
		return 1
	}
	return max(r.h-1, 1)
}

func (m *model) paste(s string) tea.Cmd {
	switch m.mode {
	case modeAttach:
		m.term.paste(s)
	case modeSearch, modeSteer, modeDenyMsg:
		m.edit.insert(s)
	default:
		if m.review != nil && m.review.step == stepReason {
			m.review.edit.insert(s)
		}
	}
	return nil
}

func (m *model) wheel(ms tea.Mouse) tea.Cmd {
	l := m.layout()
	id, ok := l.paneAt(ms.X, ms.Y)
	if !ok {
		return nil
	}
	rows := max(l.panes[id].h-1, 1)
	switch ms.Button {
	case tea.MouseWheelUp:
		m.panes[id].scroll(3, rows)
		return m.fetchOlder(m.panes[id], rows)
	case tea.MouseWheelDown:
		m.panes[id].scroll(-3, rows)
	}
	return nil
}

// stop ends the run: pending requests are denied and open reviews rejected
// (fail closed; decisions for the root), then Stop, then wait for Done off
// the UI goroutine.
func (m *model) stop() tea.Cmd {
	m.mode = modeNormal
	m.stopping = true
	for _, p := range m.queue {
		m.decide(DenyMsg{Prompt: p, Message: "the person stopped the run"})
	}
	m.queue = nil
	m.rejectReviews("the person stopped the run")
	m.flash = "stopping the run… (ctrl+c again leaves at once)"
	s := m.s
	return tea.Batch(func() tea.Msg {
		s.Stop()
		select {
		case <-s.Done():
		case <-time.After(stopWait):
		}
		return stoppedMsg{}
	})
}

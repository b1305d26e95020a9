package tui

import (
	"errors"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// stopWait bounds how long quitting waits for the run to finish after Stop.
const stopWait = 10 * time.Second

// key handles a key that passed the root's guard (a card or review that
// just opened ignores keys; attach mode has none).
func (m *model) key(k tea.KeyPressMsg) tea.Cmd {
	// Attach mode: every key but the leave key goes to the coder, encoded for
	// its terminal. Nothing else ever sends a key to the coder.
	if m.mode == modeAttach {
		if key.Matches(k, m.keys.Detach) {
			m.mode = modeNormal
			return nil
		}
		m.term.key(k)
		return nil
	}
	if k.String() == "ctrl+c" {
		switch {
		case m.stopping:
			// a person pressing ctrl+c again while the stop waits wants out
			// now (pending requests were denied and reviews rejected already)
			return tea.Quit
		case m.mode == modeQuit:
			return m.stop() // ctrl+c twice: yes
		}
	}
	switch m.mode {
	case modeHelp:
		switch {
		case key.Matches(k, m.keys.Help, m.keys.Back, m.keys.Quit):
			m.mode = modeNormal
		case key.Matches(k, m.keys.Up):
			m.helpScroll--
		case key.Matches(k, m.keys.Down):
			m.helpScroll++
		case key.Matches(k, m.keys.PageUp):
			m.helpScroll -= max(m.height/2, 1)
		case key.Matches(k, m.keys.PageDown):
			m.helpScroll += max(m.height/2, 1)
		}
		m.helpScroll = max(m.helpScroll, 0) // the drawing bounds the end
		return nil
	case modeQuit:
		switch {
		case key.Matches(k, m.keys.Yes):
			return m.stop()
		case key.Matches(k, m.keys.No):
			m.mode = modeNormal
		}
		return nil
	case modeDenyAll:
		m.mode = modeNormal
		if key.Matches(k, m.keys.Yes) && len(m.queue) > 0 {
			return m.denyKind()
		}
		return nil
	case modeFinish:
		m.mode = modeNormal
		if key.Matches(k, m.keys.Yes) {
			m.flash = "ending the coder; verification and review follow…"
			if m.info.InPlace {
				m.flash = "ending the coder; the report of what it changed follows…"
			}
			s := m.s
			return func() tea.Msg { s.Finish(); return nil }
		}
		return nil
	case modeSearch, modeSteer, modeDenyMsg:
		return m.editKey(k)
	case modeRemember:
		return m.chooserKey(k)
	}
	if m.cardVisible() {
		if cmd, ok := m.cardKey(k); ok {
			return cmd
		}
	}
	if m.review != nil {
		return m.reviewKey(k)
	}
	return m.normalKey(k)
}

func (m *model) normalKey(k tea.KeyPressMsg) tea.Cmd {
	p := m.activePane()
	rows := m.paneRows(p.id)
	switch {
	case key.Matches(k, m.keys.Quit):
		if m.runDone {
			return tea.Quit
		}
		if m.runStatus != "" {
			// The run has ended (its run-end is journaled, the status bar
			// says how) and is only closing: nothing to stop, so quit as
			// soon as it returns instead of asking to stop it.
			m.quitWhenDone = true
			m.flash = "quitting as the run closes…"
			return nil
		}
		m.mode = modeQuit
	case key.Matches(k, m.keys.Help):
		m.mode, m.helpScroll = modeHelp, 0
	case key.Matches(k, m.keys.Finish):
		if !m.runDone {
			m.mode = modeFinish
		}
	case key.Matches(k, m.keys.Next):
		m.focus = (m.focus + 1) % paneTimeline
	case key.Matches(k, m.keys.Prev):
		m.focus = (m.focus + paneTimeline - 1) % paneTimeline
	case key.Matches(k, m.keys.Timeline):
		m.view = toggle(m.view, viewTimeline)
	case key.Matches(k, m.keys.Zoom):
		m.view = toggle(m.view, viewZoom)
	case key.Matches(k, m.keys.Up):
		p.scroll(1, rows)
		return m.fetchOlder(p, rows)
	case key.Matches(k, m.keys.Down):
		p.scroll(-1, rows)
	case key.Matches(k, m.keys.PageUp):
		p.scroll(max(rows-1, 1), rows)
		return m.fetchOlder(p, rows)
	case key.Matches(k, m.keys.PageDown):
		p.scroll(-max(rows-1, 1), rows)
	case key.Matches(k, m.keys.Top):
		p.toTop(rows)
		return m.fetchOlder(p, rows)
	case key.Matches(k, m.keys.End):
		p.toEnd()
	case key.Matches(k, m.keys.Search):
		m.mode = modeSearch
		m.edit.open("search " + paneTitles[p.id] + ": ")
	case key.Matches(k, m.keys.NextMatch):
		if !p.search(p.query, true, rows) {
			return m.noOlderMatch(p, p.query)
		}
		return m.fetchOlder(p, rows)
	case key.Matches(k, m.keys.PrevMatch):
		if !p.search(p.query, false, rows) {
			m.flash = "no newer match"
		}
	case key.Matches(k, m.keys.Steer):
		m.mode = modeSteer
		if m.info.Supervised {
			m.edit.open("message (the supervisor passes it on): ")
		} else {
			m.edit.open("message for the coder: ")
		}
	case key.Matches(k, m.keys.Attach):
		if len(m.queue) > 0 {
			m.flash = "answer the pending approval first"
			return nil
		}
		m.mode = modeAttach
		m.flash = ""
	}
	return nil
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

func (m *model) editKey(k tea.KeyPressMsg) tea.Cmd {
	submitted, cancelled := m.edit.key(k)
	if !submitted && !cancelled {
		return nil
	}
	md, text := m.mode, m.edit.value()
	m.mode = modeNormal
	if cancelled {
		return nil
	}
	switch md {
	case modeSearch:
		p := m.activePane()
		p.match = -1
		if !p.search(text, true, m.paneRows(p.id)) {
			if cmd := m.searchOlder(p, text, p.oldestInMemory()); cmd != nil {
				m.flash = "searching older lines in the journal for " + text
				return cmd
			}
			m.flash = "no match for " + text
		}
	case modeSteer:
		if text == "" {
			return nil
		}
		s := m.s
		m.flash = "sent to the coder"
		if m.info.Supervised {
			m.flash = "sent to the supervisor (its answer shows in the supervisor lane)"
		}
		return func() tea.Msg {
			if err := s.Steer(text); err != nil {
				return errMsg{errors.New("steer: " + err.Error())}
			}
			return nil
		}
	case modeDenyMsg:
		if len(m.queue) == 0 {
			return nil
		}
		return m.answer(DenyMsg{Prompt: m.queue[0], Message: text})
	}
	return nil
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

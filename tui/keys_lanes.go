package tui

import (
	"errors"

	tea "charm.land/bubbletea/v2"
)

// The run screen's tables (keytable.go): the lanes, help, the three
// confirmations, attach mode, a line being typed, and the stop in
// progress. Their rows call the model's methods; the mode decides which
// table a key goes to (model.key).

// lanesTable is the keys of the lanes with nothing open over them. While
// the coder is idle after its turn, D leads the footer.
func (k keyMap) lanesTable(idle bool) keyTable[*model] {
	finishAt, at := 0, 0
	if idle {
		finishAt, at = 1, 1
	}
	return keyTable[*model]{name: "lanes", rows: []keyRow[*model]{
		{key: k.Next, do: act((*model).nextPane), group: 1, footer: at + 2},
		{key: k.Prev, do: act((*model).prevPane), group: 1},
		{key: k.Timeline, do: act(func(m *model) { m.view = toggle(m.view, viewTimeline) }), group: 1, footer: at + 3},
		{key: k.Zoom, do: act(func(m *model) { m.view = toggle(m.view, viewZoom) }), group: 1, footer: at + 4},
		{key: k.Up, do: scrollBy(func(int) int { return 1 }, true), group: 1},
		{key: k.Down, do: scrollBy(func(int) int { return -1 }, false), group: 1},
		{key: k.PageUp, do: scrollBy(func(rows int) int { return max(rows-1, 1) }, true), group: 1},
		{key: k.PageDown, do: scrollBy(func(rows int) int { return -max(rows-1, 1) }, false), group: 1},
		{key: k.Top, do: func(m *model, _ tea.KeyPressMsg) tea.Cmd {
			p, rows := m.activePane(), m.paneRows(m.activePane().id)
			p.toTop(rows)
			return m.fetchOlder(p, rows)
		}, group: 1},
		{key: k.End, do: act(func(m *model) { m.activePane().toEnd() }), group: 1},
		{key: k.Search, do: act((*model).openSearch), group: 2, footer: at + 5},
		{key: k.NextMatch, do: func(m *model, _ tea.KeyPressMsg) tea.Cmd {
			p, rows := m.activePane(), m.paneRows(m.activePane().id)
			if !p.search(p.query, true, rows) {
				return m.noOlderMatch(p, p.query)
			}
			return m.fetchOlder(p, rows)
		}, group: 2},
		{key: k.PrevMatch, do: act(func(m *model) {
			p := m.activePane()
			if !p.search(p.query, false, m.paneRows(p.id)) {
				m.flash = "no newer match"
			}
		}), group: 2},
		{key: k.Steer, do: act((*model).openSteer), group: 2, footer: at + 6},
		{key: k.Attach, do: act(func(m *model) { m.mode, m.flash = modeAttach, "" }), group: 2, footer: at + 7,
			disabled: func(m *model) string {
				if len(m.queue) > 0 {
					return "answer the pending approval first"
				}
				return ""
			}},
		{key: k.Finish, do: act(func(m *model) { m.mode = modeFinish }), group: 2, footer: finishAt,
			disabled: func(m *model) string {
				if m.runDone {
					return "the run has ended: nothing to finish"
				}
				return ""
			}},
		{key: k.Help, do: act(func(m *model) { m.mode, m.helpScroll = modeHelp, 0 }), group: 2, footer: at + 1},
		{key: k.Quit, do: (*model).quitKey, group: 2, footer: at + 8},
	}}
}

// attachTable is attach mode's one key: every other key goes to the coder.
func (k keyMap) attachTable() keyTable[*model] {
	return keyTable[*model]{name: "attach", rows: []keyRow[*model]{
		{key: k.Detach, do: act(func(m *model) { m.mode = modeNormal }), group: 2},
	}}
}

// stoppingTable is the key that acts in any mode while the stop waits.
func (k keyMap) stoppingTable() keyTable[*model] {
	return keyTable[*model]{name: "stopping", rows: []keyRow[*model]{
		// a person pressing ctrl+c again while the stop waits wants out now
		// (pending requests were denied and reviews rejected already)
		{key: k.LeaveNow, do: func(*model, tea.KeyPressMsg) tea.Cmd { return tea.Quit }, told: "the stop notice (ctrl+c leaves at once)"},
	}}
}

// helpTable is the help overlay's keys.
func (k keyMap) helpTable() keyTable[*model] {
	return overlayTable(k, "help", func(m *model) { m.mode = modeNormal },
		func(m *model, by int) { m.helpScroll = max(m.helpScroll+by, 0) }, // the drawing bounds the end
		func(m *model) int { return m.height / 2 })
}

// quitTable is "stop the run and quit?": y (or ctrl+c twice) stops.
func (k keyMap) quitTable() keyTable[*model] {
	stop := func(m *model, _ tea.KeyPressMsg) tea.Cmd { return m.stop() }
	t := yesNoTable(k, "quit", stop, func(m *model) { m.mode = modeNormal })
	t.rows = append(t.rows, keyRow[*model]{key: k.QuitAgain, do: stop, told: "the question (ctrl+c again: yes)"})
	return t
}

// denyAllTable is X's confirmation; any other key closes it.
func (k keyMap) denyAllTable() keyTable[*model] {
	return yesNoTable(k, "deny-all", func(m *model, _ tea.KeyPressMsg) tea.Cmd {
		m.mode = modeNormal
		if len(m.queue) == 0 {
			return nil
		}
		return m.denyKind()
	}, func(m *model) { m.mode = modeNormal })
}

// finishTable is D's confirmation; any other key closes it.
func (k keyMap) finishTable() keyTable[*model] {
	return yesNoTable(k, "finish", func(m *model, _ tea.KeyPressMsg) tea.Cmd {
		m.mode = modeNormal
		m.flash = "ending the coder; verification and review follow…"
		if m.info.InPlace {
			m.flash = "ending the coder; the report of what it changed follows…"
		}
		s := m.s
		return func() tea.Msg { s.Finish(); return nil }
	}, func(m *model) { m.mode = modeNormal })
}

// editTable is a line being typed (a search, a message, a deny's reason);
// every other key edits the line (editor).
func (k keyMap) editTable() keyTable[*model] {
	return lineTable(k, "edit", func(m *model, _ tea.KeyPressMsg) tea.Cmd { return m.submitEdit() },
		func(m *model) { m.mode = modeNormal })
}

func scrollBy(by func(rows int) int, older bool) func(*model, tea.KeyPressMsg) tea.Cmd {
	return func(m *model, _ tea.KeyPressMsg) tea.Cmd {
		p := m.activePane()
		rows := m.paneRows(p.id)
		p.scroll(by(rows), rows)
		if older {
			return m.fetchOlder(p, rows)
		}
		return nil
	}
}

func (m *model) nextPane() { m.focus = (m.focus + 1) % paneID(numLanes) }
func (m *model) prevPane() { m.focus = (m.focus + paneID(numLanes) - 1) % paneID(numLanes) }

func (m *model) openSearch() {
	m.mode = modeSearch
	m.edit.open("search " + lanes[m.activePane().id].title + ": ")
}

func (m *model) openSteer() {
	m.mode = modeSteer
	if m.info.Supervised {
		m.edit.open("message (the supervisor passes it on): ")
	} else {
		m.edit.open("message for the coder: ")
	}
}

func (m *model) quitKey(tea.KeyPressMsg) tea.Cmd {
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
	return nil
}

// submitEdit acts on the line typed in a search, message or deny mode.
func (m *model) submitEdit() tea.Cmd {
	md, text := m.mode, m.edit.value()
	m.mode = modeNormal
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

// yesNo is a confirmation's key row, from its table.
func (m *model) yesNo(t keyTable[*model]) []string { return keyParts(m.styles, t.legendKeys()) }

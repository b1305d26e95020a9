package tui

// Keys are data: each mode of the screen (the lanes, a card, the remember
// chooser, the review, the console, help, the confirmations…) has one
// table of rows, and everything about its keys is read from that table —
// which row a key press runs, the help overlay, the footer and the key rows
// (legends) drawn on cards and prompts. A key therefore cannot be handled
// but undocumented, nor documented but dead (keytable_test.go checks every
// table). keyMap (keys.go) is only the vocabulary the tables pick from.

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// row is one key of one mode: its keys with their label and description,
// what it does, and why it does nothing right now if it does not.
type keyRow[C any] struct {
	key key.Binding
	// do acts on the mode's context; it gets the key for rows that bind
	// several keys to one act (↑/↓, < >).
	do func(c C, k tea.KeyPressMsg) tea.Cmd
	// disabled, when set, says why the key does nothing now ("" when it
	// works); dispatch shows the reason instead of acting.
	disabled func(c C) string
	// footer is the row's place in the mode's footer (1 first); 0 keeps it
	// off the footer.
	footer int
	// group is the help overlay's column the row is listed in (1 first);
	// 0 keeps it off the overlay (the mode's legend or prompt names it).
	group int
	// legend is the row's place in the key row the mode draws on screen
	// (a card's, the chooser's); 0 keeps it off.
	legend int
	// summary rows only label keys other rows of the table handle ("1/2/3"
	// for Claude Code's three): shown in a legend, never dispatched.
	summary bool
	// told says where the mode tells the key in its own words when no
	// footer, help column or legend lists it ("the help overlay's title",
	// "the line's prompt"); a row with none of them is undocumented and
	// fails TestKeyTablesAreComplete.
	told string
}

// keyTable is one mode's keys, in dispatch order.
type keyTable[C any] struct {
	name string
	rows []keyRow[C]
}

// dispatch runs the first row whose keys match k: handled is false when no
// row has k; reason is set (and nothing done) when that row is disabled.
func (t keyTable[C]) dispatch(c C, k tea.KeyPressMsg) (cmd tea.Cmd, reason string, handled bool) {
	for _, r := range t.rows {
		if r.summary || !key.Matches(k, r.key) {
			continue
		}
		if r.disabled != nil {
			if why := r.disabled(c); why != "" {
				return nil, why, true
			}
		}
		return r.do(c, k), "", true
	}
	return nil, "", false
}

// has reports whether a row of t takes k.
func (t keyTable[C]) has(k tea.KeyPressMsg) bool {
	for _, r := range t.rows {
		if !r.summary && key.Matches(k, r.key) {
			return true
		}
	}
	return false
}

// ranked is the bindings of the rows whose rank (by pick) is positive, in
// rank order.
func (t keyTable[C]) ranked(pick func(keyRow[C]) int) []key.Binding {
	rs := slices.Clone(t.rows)
	rs = slices.DeleteFunc(rs, func(r keyRow[C]) bool { return pick(r) <= 0 })
	slices.SortStableFunc(rs, func(a, b keyRow[C]) int { return pick(a) - pick(b) })
	out := make([]key.Binding, len(rs))
	for i, r := range rs {
		out[i] = r.key
	}
	return out
}

// footerKeys is the mode's footer hints, in order.
func (t keyTable[C]) footerKeys() []key.Binding {
	return t.ranked(func(r keyRow[C]) int { return r.footer })
}

// legendKeys is the mode's on-screen key row, in order.
func (t keyTable[C]) legendKeys() []key.Binding {
	return t.ranked(func(r keyRow[C]) int { return r.legend })
}

// helpGroups is the help overlay's columns, in table order within each.
func (t keyTable[C]) helpGroups() [][]key.Binding {
	var out [][]key.Binding
	for _, r := range t.rows {
		if r.group <= 0 || r.summary {
			continue
		}
		for len(out) < r.group {
			out = append(out, nil)
		}
		out[r.group-1] = append(out[r.group-1], r.key)
	}
	return out
}

// keyTableInfo is a table without its context type, for the checks every
// table must pass (keytable_test.go).
type keyTableInfo struct {
	name string
	rows []keyRowInfo
}

type keyRowInfo struct {
	key                      key.Binding
	footer, group, legend    int
	summary, acts, canRefuse bool
	told                     string
}

func (t keyTable[C]) info() keyTableInfo {
	out := keyTableInfo{name: t.name}
	for _, r := range t.rows {
		out.rows = append(out.rows, keyRowInfo{key: r.key, footer: r.footer, group: r.group, legend: r.legend,
			summary: r.summary, acts: r.do != nil, canRefuse: r.disabled != nil, told: r.told})
	}
	return out
}

// The shapes several modes share, one function each: a yes/no question,
// a line being typed, an overlay that scrolls.

// yesNoTable is a confirmation: y does yes, n does no, both in its legend
// (the question draws them); any key no row takes is the mode's to handle.
func yesNoTable[C any](k keyMap, name string, yes func(C, tea.KeyPressMsg) tea.Cmd, no func(C)) keyTable[C] {
	return keyTable[C]{name: name, rows: []keyRow[C]{
		{key: k.Yes, do: yes, legend: 1},
		{key: k.No, do: act(no), legend: 2},
	}}
}

// lineTable is a line being typed: enter submits, esc goes back; every
// other key edits the line. The line's prompt tells both.
func lineTable[C any](k keyMap, name string, submit func(C, tea.KeyPressMsg) tea.Cmd, back func(C)) keyTable[C] {
	const told = "the line's prompt (enter …, esc goes back)"
	return keyTable[C]{name: name, rows: []keyRow[C]{
		{key: k.Submit, do: submit, told: told},
		{key: k.Back, do: act(back), told: told},
	}}
}

// overlayTable is a help overlay's keys: close it, and scroll it a line
// or, when page is set, a page at a time. Its title tells them.
func overlayTable[C any](k keyMap, name string, close func(C), scroll func(c C, by int), page func(C) int) keyTable[C] {
	const told = "the overlay's title (? or esc to close · ↑/↓ scroll)"
	by := func(step func(C) int) func(C, tea.KeyPressMsg) tea.Cmd {
		return act(func(c C) { scroll(c, step(c)) })
	}
	rows := []keyRow[C]{
		{key: k.CloseHelp, do: act(close), told: told},
		{key: k.Up, do: by(func(C) int { return -1 }), told: told},
		{key: k.Down, do: by(func(C) int { return 1 }), told: told},
	}
	if page != nil {
		rows = append(rows,
			keyRow[C]{key: k.PageUp, do: by(func(c C) int { return -max(page(c), 1) }), told: told},
			keyRow[C]{key: k.PageDown, do: by(func(c C) int { return max(page(c), 1) }), told: told})
	}
	return keyTable[C]{name: name, rows: rows}
}

// act adapts a method without a result to a row's do.
func act[C any](f func(C)) func(C, tea.KeyPressMsg) tea.Cmd {
	return func(c C, _ tea.KeyPressMsg) tea.Cmd { f(c); return nil }
}

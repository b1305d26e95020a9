package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/sentinelhq/sentinel/internal/textsafe"
)

func (m *model) title() string {
	return waitingTitle(len(m.queue), "sentinel · "+textsafe.Line(m.info.RunID), m.opts.Signal)
}

// cursor: attached to a full-screen coder, the terminal's cursor is where
// the coder put it.
func (m *model) cursor() *tea.Cursor {
	if m.mode != modeAttach || !m.info.FullScreenCoder {
		return nil
	}
	x, y, shown := m.term.cursor()
	if r, ok := m.layout().rect(paneCoder); ok && shown && x < r.w && y < r.h-1 {
		return tea.NewCursor(r.x+x, r.y+1+y)
	}
	return nil
}

// render draws the whole screen from state: status bar, panes, the bottom
// section and the footer, each row exactly the terminal's width.
func (m *model) render() string {
	w, h := max(m.width, 1), max(m.height, 1)
	l := m.layout()
	rows := make([][]string, h)
	rows[0] = []string{m.statusBar(w)}
	if m.review != nil && m.mode != modeHelp {
		for i, ln := range m.review.render(m.styles, m.keys, &m.help, w, l.area.h, m.opts.Now(), m.opts.Guard) {
			if y := l.area.y + i; y < h {
				rows[y] = []string{ln}
			}
		}
	} else if m.mode == modeHelp {
		for i, ln := range m.helpLines(w, l.area.h) {
			if y := l.area.y + i; y < h {
				rows[y] = []string{ln}
			}
		}
	} else {
		for id := paneID(0); id < numPanes; id++ {
			r, ok := l.rect(id)
			if !ok {
				continue
			}
			for i, ln := range m.renderPane(id, r) {
				if y := r.y + i; y < h {
					rows[y] = append(rows[y], ln)
				}
			}
		}
	}
	y := l.area.y + l.area.h
	for _, b := range l.bottom {
		if y < h-1 {
			rows[y] = []string{b}
		}
		y++
	}
	rows[h-1] = []string{m.footer(w)}
	sep := m.styles.Separator.Render("│")
	out := make([]string, h)
	for i, segs := range rows {
		out[i] = padTo(strings.Join(segs, sep), w)
	}
	return strings.Join(out, "\n")
}

// helpLines is the help overlay in n rows of w cells, from m.helpScroll:
// its columns side by side when they fit, else one under another, and the
// title says when there is more to scroll to.
func (m *model) helpLines(w, n int) []string {
	m.help.SetWidth(0)
	groups := m.keys.FullHelp()
	var blocks []string
	if all := m.help.FullHelpView(groups); w >= gridMinWidth && maxWidth(all) <= w-2 {
		blocks = []string{all}
	} else if two := m.help.FullHelpView(groups[:2]); maxWidth(two) <= w-2 {
		blocks = []string{two, m.help.FullHelpView(groups[2:])}
	} else {
		for _, g := range groups {
			blocks = append(blocks, m.help.FullHelpView([][]key.Binding{g}))
		}
	}
	body := strings.Split(strings.Join(blocks, "\n\n"), "\n")
	body = append(body, counterLegend(&m.styles, w-2)...)
	rows := max(n-2, 1)
	m.helpScroll = max(min(m.helpScroll, len(body)-rows), 0)
	title := " HELP · ? or esc to close"
	if len(body) > rows {
		title += fmt.Sprintf(" · ↑/↓ scroll · %d–%d of %d", m.helpScroll+1, min(m.helpScroll+rows, len(body)), len(body))
	}
	out := []string{padTo(m.styles.TitleOn.Render(title), w), strings.Repeat(" ", w)}
	for i := m.helpScroll; i < len(body) && len(out) < n; i++ {
		out = append(out, padTo(" "+body[i], w))
	}
	for len(out) < n {
		out = append(out, strings.Repeat(" ", w))
	}
	return out[:n]
}

func maxWidth(text string) int {
	w := 0
	for _, l := range strings.Split(text, "\n") {
		w = max(w, ansi.StringWidth(l))
	}
	return w
}

func (m *model) renderPane(id paneID, r rect) []string {
	p := m.panes[id]
	focused := id == m.focus || id == paneTimeline
	note := ""
	switch id {
	case paneCoder:
		switch {
		case m.mode == modeAttach:
			note = m.styles.Attached.Render(" ATTACHED · ctrl+] to leave ")
		case m.coderExited:
			note = "exited"
		}
	case paneTool:
		if !m.info.PerCommandApproval {
			note = "no per-command approval for this coder"
		}
	}
	if id == paneCoder && m.info.FullScreenCoder {
		out := []string{p.titleRow(m.styles, r.w, focused, note)}
		for _, ln := range m.term.lines() {
			if len(out) == r.h {
				break
			}
			out = append(out, padTo(ln+"\x1b[m", r.w))
		}
		for len(out) < r.h {
			out = append(out, strings.Repeat(" ", r.w))
		}
		return out
	}
	return p.render(m.styles, r.w, r.h, focused, note)
}

// statusBar: run id, coder, sandbox (red when off), network, approval counts,
// pending approvals, elapsed time, and the run's end when it has ended. On a
// narrow terminal the long facts get their short forms before anything is cut.
func (m *model) statusBar(w int) string {
	var s string
	for level := 0; level <= 3; level++ {
		if s = m.statusText(level); ansi.StringWidth(s) <= w {
			break
		}
	}
	if ansi.StringWidth(s) > w {
		return ansi.Truncate(s, w, "")
	}
	return s + m.styles.StatusBar.Render(strings.Repeat(" ", w-ansi.StringWidth(s)))
}

// statusText at level 0 is the full bar; 1 uses short forms; 2 also drops
// the network and keeps the end of the run id; 3 also drops the coder and
// the elapsed time, so the run's end ("run no changes") stays whole at 60
// columns.
func (m *model) statusText(level int) string {
	short := level > 0
	st := m.styles
	bar := st.StatusBar
	sep := bar.Render(" │ ")
	sandbox, network := "sandbox "+firstNonEmpty(m.info.Sandbox, "?"), "net "+firstNonEmpty(m.info.Network, "?")
	if short {
		sandbox = "sandbox ✓"
		if f := strings.Fields(m.info.Network); len(f) > 0 {
			network = "net " + f[0]
		}
	}
	sb := st.SandboxOn.Render(sandbox)
	if m.info.SandboxOff {
		sb = st.SandboxOff.Render("SANDBOX OFF")
	}
	brand := " SENTINEL "
	if short {
		brand = ""
	}
	id := textsafe.Line(m.info.RunID)
	if level >= 2 && len(id) > 8 {
		id = "…" + id[len(id)-6:]
	}
	segs := []string{st.StatusKey.Render(brand) + bar.Render(id)}
	if level < 3 {
		segs = append(segs, bar.Render(textsafe.Line(firstNonEmpty(m.info.Coder, "coder"))))
	}
	segs = append(segs, sb)
	if level < 2 {
		segs = append(segs, bar.Render(textsafe.Line(network)))
	}
	segs = append(segs,
		st.Allowed.Render(fmt.Sprintf("✓%d", m.counts.allowed))+bar.Render(" ")+
			st.Asked.Render(fmt.Sprintf("?%d", m.counts.asked))+bar.Render(" ")+
			st.Denied.Render(fmt.Sprintf("✗%d", m.counts.denied)))
	if n := len(m.queue); n > 0 {
		segs = append(segs, st.Asked.Render(fmt.Sprintf("%d pending", n)))
	}
	if c := m.counts; c.supTurns > 0 && level < 2 {
		segs = append(segs, bar.Render(fmt.Sprintf("sup %d↑%d↓ %s", c.supIn, c.supOut, c.supTime.Round(100*time.Millisecond))))
	}
	if m.idle() {
		mark := idleMark
		if m.info.InPlace {
			mark = idleMarkInPlace
		}
		segs = append(segs, st.Asked.Render(mark))
	}
	if level < 3 {
		segs = append(segs, bar.Render(m.elapsed()))
	}
	if m.runDone || m.runStatus != "" {
		segs = append(segs, st.StatusKey.Render("run "+firstNonEmpty(m.runStatus, "ended")))
	}
	return strings.Join(segs, sep)
}

func (m *model) elapsed() string {
	if m.info.Started.IsZero() {
		return "00:00:00"
	}
	d := m.opts.Now().Sub(m.info.Started)
	if !m.ended.IsZero() {
		d = m.ended.Sub(m.info.Started)
	}
	d = max(d, 0).Truncate(time.Second)
	return fmt.Sprintf("%02d:%02d:%02d", int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60)
}

// footer is the last notice, or the short help for the lanes or the review.
func (m *model) footer(w int) string {
	if rows := m.flashRows(w); len(rows) > 1 && m.review == nil {
		return rows[len(rows)-1] // the rows before it end the bottom section
	}
	if m.review != nil {
		return m.chrome.footer(w, m.keys.reviewShortHelp())
	}
	if m.idle() {
		return m.chrome.footer(w, m.keys.idleShortHelp())
	}
	return m.chrome.footer(w, m.keys.ShortHelp())
}

// bottomLines is everything between the panes and the footer: the approval
// card (with the remember chooser or the deny message inside it), the line editor, the attach banner and the
// quit confirmation.
//
// The card's change gets the rows the rest of the section leaves (up to
// contentRows), so its counter names exactly the rows on screen;
// m.cardClipped records whether one of the card's facts had to go.
func (m *model) bottomLines(w int) []string {
	budget := max(m.height-4, 1) // the panes keep at least a title and a row
	b, from, to := m.bottomBlock(w, 0)
	if m.cardVisible() && m.mode != modeRemember {
		facts, high := 0, 0
		for _, p := range b.prio {
			switch {
			case p <= prioFact:
				facts++
			case p == prioHigh:
				high++
			}
		}
		// the change's rows come before the policy's prose when room is short
		n := budget - facts - high
		if n < 3 {
			n = min(3, budget-facts)
		}
		b, from, to = m.bottomBlock(w, min(max(n, 1), m.contentRows()))
	}
	lines, kept := b.fitKept(budget)
	if m.cardVisible() && m.mode != modeRemember && m.mode != modeHelp && !m.content().details {
		for i := from; i < to; i++ {
			if b.prio[i] > prioFact && !kept[i] {
				// a row of the card's own (cwd, policy, advice) had to
				// go: from now on they are scrolled with the change and
				// counted, so approve waits until they were seen
				c := m.content()
				c.details, c.seen, c.scroll = true, 0, 0
				return m.bottomLines(w)
			}
		}
	}
	m.cardClipped = false
	whole := true // every title, counter and row of the card is on screen
	for i := from; i < to; i++ {
		if b.prio[i] == prioFact && !kept[i] {
			m.cardClipped = true
		}
		if b.prio[i] == prioKeep && !kept[i] {
			whole = false
		}
	}
	if m.cardVisible() && m.mode != modeRemember && m.mode != modeHelp && whole {
		c := m.content()
		c.seen = max(c.seen, c.drawn)
	}
	return lines
}

// bottomBlock is the bottom section before it is fitted, with n rows of the
// card's change; the card's lines are [from, to).
func (m *model) bottomBlock(w, n int) (out block, from, to int) {
	if b := m.busyLine(w); b != "" { // a long wait shows it is alive
		out.add(prioHigh, b)
	}
	from = len(out.lines)
	if m.cardVisible() && m.mode != modeHelp {
		// help covers the card until it closes: on a short screen the
		// card left help one row (at 60×15 "1–1 of 43", a blank line)
		out.addBlock(m.cardLines(w, n))
	}
	to = len(out.lines)
	switch m.mode {
	case modeSearch, modeSteer:
		out.add(prioKeep, m.editLine(w))
	case modeAttach:
		out.add(prioKeep, padTo(m.styles.Attached.Render(" ATTACHED: keys go to the coder · ctrl+] to leave "), w))
	case modeQuit:
		out.add(prioKeep, wrapParts(m.styles.CardTitle.Render("Stop the run and quit? (ctrl+c again: yes) "), m.yesNo(m.keys.quitTable()), w)...)
	case modeDenyAll:
		if len(m.queue) > 0 {
			out.add(prioKeep, wrapParts(m.styles.CardTitle.Render(m.denyAllQuestion()), m.yesNo(m.keys.denyAllTable()), w)...)
		}
	case modeFinish:
		q := "The coder is done: end it, verify and review its work? "
		if m.info.InPlace {
			q = "The coder is done: end it? Its changes are already in your files (the report follows; sentinel undo puts them back) "
		}
		out.add(prioKeep, wrapParts(m.styles.CardTitle.Render(q), m.yesNo(m.keys.finishTable()), w)...)
	}
	if rows := m.flashRows(w); len(rows) > 1 && m.review == nil {
		out.add(prioKeep, rows[:len(rows)-1]...)
	}
	return out, from, to
}

func (m *model) editLine(w int) string {
	st := m.styles
	s := st.CardKey.Render(" "+m.edit.prompt) + st.Text.Render(m.edit.value()) + st.CardKey.Render("█")
	if ansi.StringWidth(s) > w {
		// keep the end of what is being typed in view
		s = ansi.TruncateLeft(s, ansi.StringWidth(s)-w, "…")
	}
	return padTo(s, w)
}

// rule is a horizontal line with a title at its left.
func rule(title string, line lipgloss.Style, w int) string {
	fill := w - 2 - ansi.StringWidth(title)
	if fill < 0 {
		return padTo(line.Render("──")+title, w)
	}
	return line.Render("──") + title + line.Render(strings.Repeat("─", fill))
}

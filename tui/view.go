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

// View draws the whole screen from state: status bar, panes, the bottom
// section and the footer, each row exactly the terminal's width.
func (m *model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "sentinel · " + textsafe.Line(m.info.RunID)
	// attached to a full-screen coder: show its cursor where it put it
	if m.mode == modeAttach && m.info.FullScreenCoder {
		x, y, shown := m.term.cursor()
		if r, ok := m.layout().rect(paneCoder); ok && shown && x < r.w && y < r.h-1 {
			v.Cursor = tea.NewCursor(r.x+x, r.y+1+y)
		}
	}
	return v
}

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
		m.help.SetWidth(w - 2)
		groups := m.keys.FullHelp()
		text := m.help.FullHelpView(groups)
		if w < gridMinWidth { // two columns, then the card's keys below
			text = m.help.FullHelpView(groups[:2]) + "\n\n" + m.help.FullHelpView(groups[2:])
		}
		hl := strings.Split(text, "\n")
		hl = append([]string{m.styles.TitleOn.Render(" HELP · ? or esc to close"), ""}, hl...)
		for i := 0; i < l.area.h && l.area.y+i < h; i++ {
			s := ""
			if i < len(hl) {
				s = " " + hl[i]
			}
			rows[l.area.y+i] = []string{padTo(s, w)}
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
	for level := 0; level <= 2; level++ {
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
// the network and keeps the end of the run id.
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
	segs := []string{
		st.StatusKey.Render(brand) + bar.Render(id),
		bar.Render(textsafe.Line(firstNonEmpty(m.info.Coder, "coder"))),
		sb,
	}
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
	segs = append(segs, bar.Render(m.elapsed()))
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

// footer is the last notice, or the short help built from the key map.
func (m *model) footer(w int) string {
	if m.flash != "" {
		return padTo(m.styles.Asked.UnsetBackground().Render(" "+textsafe.Line(m.flash)), w)
	}
	if m.review != nil {
		return m.reviewFooter(w)
	}
	m.help.SetWidth(w - 1)
	return padTo(" "+m.help.ShortHelpView(m.keys.ShortHelp()), w)
}

// bottomLines is everything between the panes and the footer: the approval
// card (with the remember chooser or the deny message inside it), a folded
// notice for skipped requests, the line editor, the attach banner and the
// quit confirmation.
func (m *model) bottomLines(w int) []string {
	var out []string
	switch {
	case m.cardVisible():
		out = m.cardLines(w)
	case len(m.queue) > 0:
		out = append(out, padTo(m.styles.Asked.UnsetBackground().Render(
			fmt.Sprintf(" ● %d approval(s) pending — press p to answer", len(m.queue))), w))
	}
	switch m.mode {
	case modeSearch, modeSteer:
		out = append(out, m.editLine(w))
	case modeAttach:
		out = append(out, padTo(m.styles.Attached.Render(" ATTACHED: keys go to the coder · ctrl+] to leave "), w))
	case modeQuit:
		out = append(out, padTo(m.styles.CardTitle.Render(" Stop the run and quit? ")+m.keysLine([]key.Binding{m.keys.Yes, m.keys.No}), w))
	case modeFinish:
		out = append(out, padTo(m.styles.CardTitle.Render(" The coder is done: end it, verify and review its work? ")+m.keysLine([]key.Binding{m.keys.Yes, m.keys.No}), w))
	}
	return out
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

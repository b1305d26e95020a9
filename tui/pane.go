package tui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/sentinelhq/sentinel/themes"
)

// paneID names a pane. The four lane panes come first, in grid order.
type paneID int

const (
	paneCoder paneID = iota
	paneTool
	paneApproval
	paneSupervisor
	paneTimeline
	numPanes
)

var paneTitles = [numPanes]string{"CODER", "TOOL", "APPROVAL", "SUPERVISOR · SYSTEM", "TIMELINE"}

// pane is a scrollable window onto a lane's bounded history. It renders only
// the lines it shows, so drawing costs the same at any history length.
type pane struct {
	id       paneID
	lines    *ring
	showTags bool // label each line with its lane, as the timeline does
	// partial is the coder's unfinished last line, shown below the kept lines.
	partial    line
	hasPartial bool
	// offset is how many lines the view is scrolled up from the newest line;
	// 0 follows the tail.
	offset int
	query  string
	match  int64 // absolute line number of the current search match; -1 for none
}

func newPane(id paneID, history int) *pane {
	return &pane{id: id, lines: newRing(history), showTags: id == paneTimeline || id == paneSupervisor, match: -1}
}

func (p *pane) count() int {
	n := p.lines.len()
	if p.hasPartial {
		n++
	}
	return n
}

func (p *pane) lineAt(i int) line {
	if i == p.lines.len() {
		return p.partial
	}
	return p.lines.at(i)
}

// add appends a finished line. A pane scrolled up keeps showing the same
// lines; one at the tail follows.
func (p *pane) add(l line) {
	p.lines.add(l)
	if p.offset > 0 {
		p.offset++
	}
}

func (p *pane) setPartial(l line, ok bool) { p.partial, p.hasPartial = l, ok }

// scroll moves the view up (delta > 0, older) or down; rows is the number of
// content rows shown. Reaching the bottom resumes following.
func (p *pane) scroll(delta, rows int) {
	p.offset = clamp(p.offset+delta, 0, max(0, p.count()-rows))
}

func (p *pane) toTop(rows int) { p.offset = max(0, p.count()-rows) }
func (p *pane) toEnd()         { p.offset = 0 }

// search finds the next line containing query (case-insensitive), older than
// the current match when older is true, else newer; from no match it starts
// at the newest line. It scrolls the match into view and reports success.
func (p *pane) search(query string, older bool, rows int) bool {
	if query == "" {
		return false
	}
	p.query = query
	q := strings.ToLower(query)
	first, n := p.lines.first(), p.lines.len()
	cur := n // one past the newest kept line
	if p.match >= first {
		cur = int(p.match - first)
	}
	step := -1
	if !older {
		step = 1
	}
	if p.match < first && !older {
		return false
	}
	for i := cur + step; i >= 0 && i < n; i += step {
		if strings.Contains(strings.ToLower(p.lines.at(i).text), q) {
			p.match = first + int64(i)
			// show the match on the bottom row (or as low as it can go)
			p.offset = clamp(p.count()-1-i, 0, max(0, p.count()-rows))
			return true
		}
	}
	return false
}

// render draws the pane as exactly h lines of exactly w cells: a title row
// and h-1 content rows. Long lines wrap. It walks back from the newest line
// shown only until the rows are full, so the cost does not depend on history.
func (p *pane) render(st themes.Styles, w, h int, focused bool, note string) []string {
	out := make([]string, 0, h)
	out = append(out, p.titleRow(st, w, focused, note))
	rows := h - 1
	if rows <= 0 {
		return out[:min(len(out), max(h, 0))]
	}
	p.offset = clamp(p.offset, 0, max(0, p.count()-rows))
	end := p.count() - p.offset
	first := p.lines.first()
	var body []string // newest row first
	for i := end - 1; i >= 0 && len(body) < rows; i-- {
		isMatch := p.match >= 0 && i < p.lines.len() && first+int64(i) == p.match
		wrapped := renderLine(st, p.lineAt(i), w, p.showTags, isMatch, rows)
		for j := len(wrapped) - 1; j >= 0 && len(body) < rows; j-- {
			body = append(body, wrapped[j])
		}
	}
	for i := len(body) - 1; i >= 0; i-- {
		out = append(out, body[i])
	}
	for len(out) < h {
		out = append(out, strings.Repeat(" ", w))
	}
	return out
}

func (p *pane) titleRow(st themes.Styles, w int, focused bool, note string) string {
	ts := st.Title
	if focused {
		ts = st.TitleOn
	}
	title := " " + paneTitles[p.id] + " "
	if focused {
		title = "▸" + title
	}
	right := note
	if p.offset > 0 {
		right = strings.TrimSpace(fmt.Sprintf("%s ↑%d", note, p.offset))
	}
	if right != "" {
		right = " " + right + " "
	}
	fill := w - ansi.StringWidth(title) - ansi.StringWidth(right)
	if fill < 0 {
		return ts.Render(ansi.Truncate(title+right, w, ""))
	}
	return ts.Render(title) + st.Separator.Render(strings.Repeat("─", fill)) + ts.Render(right)
}

// renderLine draws one plain line as at most maxRows rows of w cells,
// labelled and coloured, wrapping long text under its start.
func renderLine(st themes.Styles, l line, w int, tags, isMatch bool, maxRows int) []string {
	prefix, indent := "", 0
	if tags {
		lab := l.tag.label()
		if lw := ansi.StringWidth(lab) + 1; lw+8 <= w {
			prefix, indent = tagStyle(st, l.tag).Render(lab)+" ", lw
		}
	}
	ts := st.Text
	switch {
	case isMatch:
		ts = st.Match
	case l.tag == tagDenied:
		ts = st.DeniedTag
	case !tags && l.tag == tagSystem:
		ts = st.Muted
	}
	avail := max(w-indent, 1)
	var parts []string
	if ansi.StringWidth(l.text) <= avail {
		parts = []string{l.text}
	} else {
		parts = strings.Split(ansi.Wrap(l.text, avail, ""), "\n")
	}
	if len(parts) > maxRows {
		parts = parts[:maxRows]
		parts[maxRows-1] = ansi.Truncate(parts[maxRows-1], avail-1, "") + "…"
	}
	out := make([]string, len(parts))
	for i, t := range parts {
		lead := prefix
		if i > 0 {
			lead = strings.Repeat(" ", indent)
		}
		out[i] = lead + ts.Render(t) + strings.Repeat(" ", max(avail-ansi.StringWidth(t), 0))
	}
	return out
}

func tagStyle(st themes.Styles, t tag) lipgloss.Style {
	switch t {
	case tagCoder:
		return st.CoderTag
	case tagTool:
		return st.ToolTag
	case tagApproval:
		return st.ApprovalTag
	case tagDenied:
		return st.DeniedTag
	case tagSupervisor:
		return st.SupervisorTag
	case tagAdversary:
		return st.AdversaryTag
	}
	return st.SystemTag
}

func clamp(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

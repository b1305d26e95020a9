package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/sentinelhq/sentinel/themes"
)

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
	// older is a page of lines older than the kept ones, read back from the
	// journal when the view scrolls past them (history.go).
	older  olderPage
	backed bool  // older lines can be read back from the journal
	marks  marks // where in the journal its older lines start (marks.go)
}

func newPane(id paneID, history int) *pane {
	return &pane{id: id, lines: newRing(history), showTags: lanes[id].tagged, match: -1}
}

// count is the number of lines the pane can show: every line ever added
// (the oldest read back from the journal on demand) and the partial one.
func (p *pane) count() int {
	n := int(p.lines.total)
	if p.hasPartial {
		n++
	}
	return n
}

// lineAt is line i, by absolute number; a line neither kept nor in the page
// read back from the journal shows as a placeholder until it is.
func (p *pane) lineAt(i int) line {
	first := p.lines.first()
	switch {
	case int64(i) == p.lines.total:
		return p.partial
	case int64(i) >= first:
		return p.lines.at(int(int64(i) - first))
	}
	if l, ok := p.older.at(int64(i)); ok {
		return l
	}
	return line{tagSystem, olderPlaceholder}
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
	p.offset = clamp(p.offset+delta, 0, p.maxOffset(rows))
}

func (p *pane) toTop(rows int) { p.offset = p.maxOffset(rows) }

// floor is the oldest line the pane can show: the first ever when older
// lines can be read back from the journal, else the oldest kept.
func (p *pane) floor() int {
	if p.backed {
		return 0
	}
	return int(p.lines.first())
}

// maxOffset is how far up the view can scroll.
func (p *pane) maxOffset(rows int) int { return max(0, p.count()-p.floor()-rows) }
func (p *pane) toEnd()                 { p.offset = 0 }

// search finds the next line containing query (case-insensitive), older than
// the current match when older is true, else newer; from no match it starts
// at the newest line. It scrolls the match into view and reports success.
func (p *pane) search(query string, older bool, rows int) bool {
	if query == "" {
		return false
	}
	p.query = query
	q := strings.ToLower(query)
	lo, hi := p.available() // the lines in memory: [lo, hi)
	cur := hi               // one past the newest kept line
	if p.match >= 0 {
		cur = p.match
	}
	step := int64(-1)
	if !older {
		step = 1
	}
	for i := cur + step; i >= lo && i < hi; i += step {
		if strings.Contains(strings.ToLower(p.lineAt(int(i)).text), q) {
			p.showMatch(i, rows)
			return true
		}
	}
	return false
}

// showMatch makes line i the current match and scrolls it onto the bottom
// row (or as low as it can go).
func (p *pane) showMatch(i int64, rows int) {
	p.match = i
	p.offset = clamp(p.count()-1-int(i), 0, p.maxOffset(rows))
}

// available is the range of line numbers in memory: the page read back
// from the journal when it joins the kept lines, else the kept lines.
func (p *pane) available() (lo, hi int64) {
	lo, hi = p.lines.first(), p.lines.total
	if p.older.has() && p.older.end() >= lo {
		lo = min(lo, p.older.first)
	}
	return lo, hi
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
	p.offset = clamp(p.offset, 0, p.maxOffset(rows))
	end := p.count() - p.offset
	var body []string // newest row first
	for i := end - 1; i >= p.floor() && len(body) < rows; i-- {
		isMatch := p.match >= 0 && int64(i) < p.lines.total && int64(i) == p.match
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
	title := " " + lanes[p.id].title + " "
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

func clamp(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

// oldestInMemory is the number of the oldest line the pane holds.
func (p *pane) oldestInMemory() int64 {
	lo, _ := p.available()
	return lo
}

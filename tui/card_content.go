package tui

// What a write or edit card shows of the change it asks for: the content of
// a new file or the edit as a diff, highlighted like the review screen and
// scrollable inside the card, so nothing is approved blind. Paths on cards
// and lanes are shown relative to the workspace.

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/policy"
	"github.com/sentinelhq/sentinel/runner/patch"
)

// cardContent is the drawn change of the card on screen.
type cardContent struct {
	prompt *approvals.Prompt // the card it was built for
	file   patch.File
	ok     bool // the request carries content to show
	diff   *diffCache
	scroll int // first row shown
	// value is a command or tool input too long for its field: it is
	// shown in full here instead, scrollable like a change
	value, valueName string
	// unshown is the summary of a write's content that cannot be shown as
	// text (approvals.UnshownOf), scrollable like a change
	unshown     []string
	unshownSize int
	// seen is how many rows from the top have been on screen, total how
	// many there are at the width drawn: approve waits for seen ≥ total
	// when rows is set (the card shows a change or a long value)
	seen, total int
	rows        bool
	// drawn is the last row the latest draw put on the card; it counts
	// as seen once the bottom section kept it (bottomLines)
	drawn int
	// details is set once the card's own rows (cwd, policy, advice) did
	// not all fit the screen: from then on they are the first rows of the
	// scrolled view, counted with the change, so approve waits for them
	// too; extra holds them as the latest draw rendered them
	details bool
	extra   []string
}

// changeOf builds the change a write or edit request asks for as a diff of
// one file: a new file's content as added lines, each edit as its old lines
// removed and its new lines added. ok is false when the request carries no
// content (the card then says so).
func changeOf(req approvals.Request, path string) (patch.File, bool) {
	in, ok := approvals.WriteInputOf(req)
	if !ok {
		return patch.File{}, false
	}
	f := patch.File{Path: path, Status: patch.Modified}
	switch {
	case in.Content != nil:
		lines := splitLines(*in.Content)
		h := patch.Hunk{NewStart: 1, NewCount: len(lines)}
		for _, l := range lines {
			h.Lines = append(h.Lines, "+"+l)
		}
		f.Hunks = []patch.Hunk{h}
	case in.NewString != nil:
		f.Hunks = []patch.Hunk{editHunk(in.OldString, *in.NewString)}
	case len(in.Edits) > 0:
		for _, e := range in.Edits {
			f.Hunks = append(f.Hunks, editHunk(e.Old, e.New))
		}
	default:
		return patch.File{}, false
	}
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			switch l[0] {
			case '+':
				f.Adds++
			case '-':
				f.Dels++
			}
		}
	}
	return f, true
}

// editHunk is one replacement: the old text's lines out, the new text's in.
func editHunk(old, nw string) patch.Hunk {
	o, n := splitLines(old), splitLines(nw)
	h := patch.Hunk{OldStart: 1, OldCount: len(o), NewStart: 1, NewCount: len(n)}
	for _, l := range o {
		h.Lines = append(h.Lines, "-"+l)
	}
	for _, l := range n {
		h.Lines = append(h.Lines, "+"+l)
	}
	return h
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// relPath shows a path inside the workspace relative to it ("." for the
// workspace itself); a path outside it, or any path when the run has no
// workspace, is shown as it is.
func relPath(ws, p string) string {
	if ws == "" || p == "" || !filepath.IsAbs(p) {
		return p
	}
	rel, err := filepath.Rel(ws, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.Clean(p)
	}
	return rel
}

// relText makes every workspace path in a lane line relative to it.
func relText(ws, s string) string {
	if ws == "" || ws == "/" {
		return s
	}
	return strings.ReplaceAll(s, strings.TrimSuffix(ws, "/")+"/", "")
}

// content is the change of the card on screen, built once per card.
func (m *model) content() *cardContent {
	p := m.queue[0]
	if m.cardContent == nil || m.cardContent.prompt != p {
		f, ok := changeOf(p.Request, relPath(m.workspace(p), p.Request.Path))
		m.cardContent = &cardContent{prompt: p, file: f, ok: ok, diff: newDiffCache(), rows: ok}
		if u, unshown := approvals.UnshownOf(p.Request); unshown {
			m.cardContent.ok, m.cardContent.rows = false, true
			m.cardContent.unshown, m.cardContent.unshownSize = u.Lines(), u.Size
		}
		switch p.Request.Kind {
		case policy.KindShell:
			m.cardContent.value, m.cardContent.valueName = p.Request.Command, "command"
		case policy.KindWrite, policy.KindEdit, policy.KindRead, policy.KindNet:
		default:
			m.cardContent.value, m.cardContent.valueName = string(p.Request.Input), "input"
		}
	}
	return m.cardContent
}

// contentRows is how many rows of the change a card shows at most at this
// height; bottomLines gives it fewer when the rest of the card needs the room.
func (m *model) contentRows() int { return min(12, max(2, m.height/3-1)) }

// contentSeen reports whether every row of the card's change has been on
// screen (true when the request carries none).
func (m *model) contentSeen() bool {
	c := m.content()
	return !c.rows && len(c.extra) == 0 || c.total > 0 && c.seen >= c.total
}

// valueRows is the card's long value wrapped for a card w cells wide, nil
// when it fits its field (maxValueLines).
func valueRows(value string, w int) [][]tok {
	if value == "" {
		return nil
	}
	toks, _ := reveal(value)
	lines := wrapToks(toks, w-10)
	if len(lines) <= maxValueLines {
		return nil
	}
	return lines
}

// scrollContent moves the card's view of the change by delta rows (the
// drawing keeps it in range).
func (m *model) scrollContent(delta int) {
	c := m.content()
	c.scroll = max(min(c.scroll, contentEnd)+delta, 0)
	c.scroll = min(c.scroll, contentEnd)
}

// contentEnd is a scroll past any card's last row: the drawing brings it
// back to the last page, so End shows the last row.
const contentEnd = 1 << 30

// pageContent moves the card's view of the change by the rows it shows
// (one page), dir -1 up or 1 down.
func (m *model) pageContent(dir int) {
	c := m.content()
	m.scrollContent(dir * max(c.drawn-c.scroll, 1))
}

// contentLines draws the change on the card: a rule with what it is and
// where the view is, then at most n of its rows (none when n is 0: the card
// is being measured). The counter names exactly the rows drawn.
func (m *model) contentLines(w, n int) []string {
	st := m.styles
	c := m.content()
	req := c.prompt.Request
	if long := valueRows(c.value, w); long != nil {
		return m.valueLines(c, long, w, n)
	}
	if c.unshown != nil {
		return m.unshownLines(c, w, n)
	}
	var rows []diffRow
	var tail []string // a row after the extra ones when there is no change to show
	what := "the card in full"
	if c.ok {
		c.diff.prepare(st)
		for _, r := range c.diff.rows([]patch.File{c.file}, 0, false, w) {
			if r.kind != rowHunk {
				rows = append(rows, r)
			}
		}
		what = fmt.Sprintf("new file · %d line(s)", c.file.Adds)
		if req.Kind == policy.KindEdit {
			what = fmt.Sprintf("edit · +%d −%d", c.file.Adds, c.file.Dels)
		}
	} else if req.Kind == policy.KindWrite || req.Kind == policy.KindEdit {
		tail = []string{padTo(st.CardLabel.Render(fmt.Sprintf(" %-8s ", "content"))+st.Muted.Render("the coder's request does not carry the content: see it in review before it lands"), w)}
	}
	if !c.ok && len(c.extra) == 0 {
		return tail
	}
	e := len(c.extra) + len(tail)
	total := e + len(rows)
	n = min(n, total)
	c.scroll = max(min(c.scroll, total-n), 0)
	c.drawn = 0
	if n > 0 {
		c.total = total
		c.drawn = c.scroll + n
	}
	out := []string{m.counterRule(c, what, n, w)}
	// the change first, then the card's own rows that did not fit
	for i := c.scroll; i < c.scroll+n; i++ {
		switch j := i - len(rows); {
		case j < 0:
			out = append(out, c.diff.draw(c.file, 0, rows[i], w, false, true, false))
		case j < len(tail):
			out = append(out, tail[j])
		default:
			out = append(out, c.extra[j-len(tail)])
		}
	}
	return out
}

// unshownLines draws the summary of a content that cannot be shown as
// text, n rows of it at a time, as contentLines draws a change: approve
// waits until all of it has been on screen.
func (m *model) unshownLines(c *cardContent, w, n int) []string {
	st := m.styles
	var rows []string
	for _, l := range c.unshown {
		toks, _ := reveal(l)
		for _, t := range wrapToks(toks, w-10) {
			rows = append(rows, padTo(st.CardLabel.Render(fmt.Sprintf(" %-8s ", ""))+renderToks(st, t), w))
		}
	}
	total := len(c.extra) + len(rows)
	n = min(n, total)
	c.scroll = max(min(c.scroll, total-n), 0)
	c.drawn = 0
	if n > 0 {
		c.total = total
		c.drawn = c.scroll + n
	}
	what := fmt.Sprintf("content not shown as text · %d byte(s)", c.unshownSize)
	out := []string{m.counterRule(c, what, n, w)}
	for i := c.scroll; i < c.scroll+n; i++ {
		if i >= len(rows) {
			out = append(out, c.extra[i-len(rows)])
			continue
		}
		out = append(out, rows[i])
	}
	return out
}

// valueLines draws a long command or input in full, n rows of it at a time,
// as contentLines draws a change.
func (m *model) valueLines(c *cardContent, rows [][]tok, w, n int) []string {
	st := m.styles
	c.rows = true
	e := len(c.extra)
	total := e + len(rows)
	n = min(n, total)
	c.scroll = max(min(c.scroll, total-n), 0)
	c.drawn = 0
	if n > 0 {
		c.total = total
		c.drawn = c.scroll + n
	}
	what := fmt.Sprintf("%s in full · %d row(s)", c.valueName, len(rows))
	out := []string{m.counterRule(c, what, n, w)}
	for i := c.scroll; i < c.scroll+n; i++ {
		if i >= len(rows) { // the card's own rows that did not fit
			out = append(out, c.extra[i-len(rows)])
			continue
		}
		out = append(out, padTo(st.CardLabel.Render(fmt.Sprintf(" %-8s ", ""))+renderToks(st, rows[i]), w))
	}
	return out
}

package tui

// What a write or edit card shows of the change it asks for: the content of
// a new file or the edit as a diff, highlighted like the review screen and
// scrollable inside the card, so nothing is approved blind. Paths on cards
// and lanes are shown relative to the workspace.

import (
	"encoding/json"
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
}

// writeInput is what adapters put in a write or edit request's input:
// Claude Code's Write (content), Edit (old_string, new_string) and
// MultiEdit (edits), ACP's writes (content), the demo coder's.
type writeInput struct {
	Content   *string `json:"content"`
	OldString string  `json:"old_string"`
	NewString *string `json:"new_string"`
	Edits     []struct {
		OldString string `json:"old_string"`
		NewString string `json:"new_string"`
	} `json:"edits"`
}

// changeOf builds the change a write or edit request asks for as a diff of
// one file: a new file's content as added lines, each edit as its old lines
// removed and its new lines added. ok is false when the request carries no
// content (the card then says so).
func changeOf(req approvals.Request, path string) (patch.File, bool) {
	if req.Kind != policy.KindWrite && req.Kind != policy.KindEdit || len(req.Input) == 0 {
		return patch.File{}, false
	}
	var in writeInput
	if json.Unmarshal(req.Input, &in) != nil {
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
			f.Hunks = append(f.Hunks, editHunk(e.OldString, e.NewString))
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
		f, ok := changeOf(p.Request, relPath(m.info.Workspace, p.Request.Path))
		m.cardContent = &cardContent{prompt: p, file: f, ok: ok, diff: newDiffCache()}
	}
	return m.cardContent
}

// contentRows is how many rows of the change a card shows at this height.
func (m *model) contentRows() int { return min(12, max(2, m.height/3-1)) }

// scrollContent moves the card's view of the change by delta rows (the
// drawing keeps it in range).
func (m *model) scrollContent(delta int) {
	if c := m.content(); c.ok {
		c.scroll = max(c.scroll+delta, 0)
	}
}

// contentLines draws the change on the card: a rule with what it is and
// where the view is, then its rows.
func (m *model) contentLines(w int) []string {
	st := m.styles
	c := m.content()
	req := c.prompt.Request
	if !c.ok {
		if req.Kind == policy.KindWrite || req.Kind == policy.KindEdit {
			return []string{padTo(st.CardLabel.Render(fmt.Sprintf(" %-8s ", "content"))+st.Muted.Render("the coder's request does not carry the content: see it in review before it lands"), w)}
		}
		return nil
	}
	c.diff.prepare(st)
	var rows []diffRow
	for _, r := range c.diff.rows([]patch.File{c.file}, 0, false, w) {
		if r.kind != rowHunk {
			rows = append(rows, r)
		}
	}
	n := min(m.contentRows(), len(rows))
	c.scroll = max(min(c.scroll, len(rows)-n), 0)
	what := fmt.Sprintf(" new file · %d line(s) ", c.file.Adds)
	if req.Kind == policy.KindEdit {
		what = fmt.Sprintf(" edit · +%d −%d ", c.file.Adds, c.file.Dels)
	}
	if n < len(rows) {
		what += fmt.Sprintf("· rows %d–%d of %d · %s %s scroll ", c.scroll+1, c.scroll+n, len(rows),
			m.keys.ContentUp.Help().Key, m.keys.ContentDown.Help().Key)
	}
	out := []string{rule(st.Muted.Render(what), st.CardBorder, w)}
	for _, r := range rows[c.scroll : c.scroll+n] {
		out = append(out, c.diff.draw(c.file, 0, r, w, false, true, false))
	}
	return out
}

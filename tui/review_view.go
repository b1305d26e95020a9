package tui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/runner/patch"
	"github.com/sentinelhq/sentinel/themes"
)

// reviewLayout is how the review screen splits its rows.
type reviewLayout struct{ list, checks, viewer int }

// maxCheckRows caps the verification summary; the rest is one line.
const maxCheckRows = 3

func (r *reviewScreen) layout(h int) reviewLayout {
	var l reviewLayout
	l.checks = max(min(len(r.req.Checks), maxCheckRows), 1)
	if len(r.req.Checks) > maxCheckRows {
		l.checks++
	}
	l.list = min(max(len(r.files), 1), max(h/4, 3))
	// title, rule and the bottom line take one row each
	l.viewer = h - 3 - l.list - l.checks
	for l.viewer < 3 && l.list > 1 {
		l.list--
		l.viewer++
	}
	for l.viewer < 3 && l.checks > 1 {
		l.checks--
		l.viewer++
	}
	l.viewer = max(l.viewer, 1)
	return l
}

// render draws the review screen into exactly h rows of w cells.
func (r *reviewScreen) render(st themes.Styles, keys keyMap, hm *help.Model, w, h int, now time.Time, guard time.Duration) []string {
	r.diff.prepare(st)
	r.width = w
	l := r.layout(h)
	out := make([]string, 0, h)
	out = append(out, r.titleRow(st, w))
	out = append(out, r.listRows(st, w, l.list)...)
	out = append(out, r.checkRows(st, w, l.checks)...)
	out = append(out, r.viewerTitle(st, w))
	switch {
	case r.step == stepHelp:
		hm.SetWidth(0)
		groups := keys.reviewFullHelp(r.standalone)
		text := hm.FullHelpView(groups)
		if maxWidth(text) > w-2 { // the columns one under another
			text = hm.FullHelpView(groups[:1]) + "\n\n" + hm.FullHelpView(groups[1:])
		}
		lines := strings.Split(text, "\n")
		r.helpScroll = max(min(r.helpScroll, len(lines)-l.viewer), 0)
		for i := r.helpScroll; i < len(lines) && i < r.helpScroll+l.viewer; i++ {
			out = append(out, padTo(" "+lines[i], w))
		}
	case r.tail:
		lines := r.tailLines()
		for i := r.scroll; i < len(lines) && i < r.scroll+l.viewer; i++ {
			out = append(out, padTo(st.Text.Render(" "+textsafe.Line(lines[i])), w))
		}
	case r.err != "":
		out = append(out, padTo(st.Reveal.Render(" cannot read the patch: "+textsafe.Line(r.err)), w))
		out = append(out, padTo(st.Text.Render(" It can only be rejected (d)."), w))
	case len(r.files) == 0:
		out = append(out, padTo(st.Muted.Render(" the change is empty: nothing would land"), w))
	default:
		rows := r.rows()
		for i := r.scroll; i < len(rows) && i < r.scroll+l.viewer; i++ {
			out = append(out, r.drawRow(i, w))
		}
	}
	for len(out) < h-1 {
		out = append(out, strings.Repeat(" ", w))
	}
	out = append(out[:h-1], r.bottomRow(st, keys, w, now, guard))
	return out
}

func (r *reviewScreen) titleRow(st themes.Styles, w int) string {
	adds, dels, flagged := 0, 0, 0
	for _, f := range r.files {
		adds += f.Adds
		dels += f.Dels
		if f.Flagged {
			flagged++
		}
	}
	title := fmt.Sprintf(" REVIEW · run %s · %d file(s) +%d −%d ", textsafe.Line(r.req.RunID), len(r.files), adds, dels)
	s := st.CardTitle.Render(title)
	if flagged > 0 {
		s += st.Reveal.Render(fmt.Sprintf("⚑ %d flagged ", flagged))
	}
	return rule(s, st.CardBorder, w)
}

// listRows is the file list, scrolled so the selected file shows.
func (r *reviewScreen) listRows(st themes.Styles, w, n int) []string {
	if len(r.files) == 0 {
		return []string{padTo(st.Muted.Render(" no files changed"), w)}
	}
	top := min(max(r.cur-n/2, 0), max(len(r.files)-n, 0))
	var out []string
	for i := top; i < len(r.files) && i < top+n; i++ {
		f := r.files[i]
		mark := "  "
		if i == r.cur {
			mark = "▸ "
			if r.focus == focusFiles {
				mark = "▶ "
			}
		}
		box := r.fileBox(i)
		name := textsafe.Line(f.Path)
		if f.Status == patch.Renamed {
			name = textsafe.Line(f.OldPath) + " → " + name
		}
		counts := fmt.Sprintf("+%d −%d", f.Adds, f.Dels)
		if f.Binary {
			counts = "binary"
		}
		line := st.TitleOn.Render(mark) + st.CardKey.Render(box) + " " + st.Muted.Render(fmt.Sprintf("%-8s", statusWord(f))) + " "
		nameStyle := st.Text
		if i == r.cur {
			nameStyle = st.CardValue
		}
		line += nameStyle.Render(name) + "  " + st.Allowed.UnsetBackground().Render(counts)
		if f.Flagged {
			line += "  " + st.Reveal.Render("⚑ "+f.FlagReason)
		}
		out = append(out, padTo(line, w))
	}
	return out
}

// fileBox is [✓] for all accepted, [~] for part, [ ] for none.
func (r *reviewScreen) fileBox(i int) string {
	switch {
	case !r.fileOn[i]:
		return "[ ]"
	case len(r.hunkOn[i]) > 0 && !allTrue(r.hunkOn[i]):
		return "[~]"
	}
	return "[✓]"
}

func statusWord(f patch.File) string {
	if f.Binary && f.Status == patch.Modified {
		return "binary"
	}
	return string(f.Status)
}

// checkRows summarise the verification on the clean copy.
func (r *reviewScreen) checkRows(st themes.Styles, w, n int) []string {
	checks := r.req.Checks
	if len(checks) == 0 {
		return []string{padTo(st.Asked.UnsetBackground().Render(" verify  no checks ran on the clean copy"), w)}
	}
	var out []string
	for i, c := range checks {
		if len(out) == n-1 && len(checks)-i > 1 {
			out = append(out, padTo(st.Muted.Render(fmt.Sprintf(" … %d more check(s): c shows all output", len(checks)-i)), w))
			break
		}
		mark, style := "✓", st.Allowed.UnsetBackground()
		if !c.Passed() {
			mark, style = "✗", st.Denied.UnsetBackground()
		}
		out = append(out, padTo(" "+style.Render(mark+" "+textsafe.Line(c.Command))+"  "+st.Muted.Render(checkSummary(c)), w))
		if len(out) == n {
			break
		}
	}
	return out
}

func (r *reviewScreen) viewerTitle(st themes.Styles, w int) string {
	style := st.Title
	if r.focus == focusDiff {
		style = st.TitleOn
	}
	var title string
	switch {
	case r.step == stepHelp:
		title = " HELP · ? or esc to close · ↑/↓ scroll "
	case r.tail:
		title = " VERIFICATION OUTPUT · c to close "
	case len(r.files) == 0:
		title = " DIFF "
	default:
		f := r.files[r.cur]
		title = " " + textsafe.Line(f.Path) + " "
		if n := len(f.Hunks); n > 0 && r.hunk >= 0 {
			title += fmt.Sprintf("· hunk %d/%d ", r.hunk+1, n)
		}
		if r.split {
			title += "· side by side "
		} else {
			title += "· unified "
		}
	}
	return rule(style.Render(title), st.Separator, w)
}

// bottomRow is the confirmation, the reason being typed, the key guard's
// notice or what would land.
func (r *reviewScreen) bottomRow(st themes.Styles, keys keyMap, w int, now time.Time, guard time.Duration) string {
	if !r.armed(now, guard) {
		return padTo(st.Muted.Render(" keys are ignored for a moment so a keystroke in flight cannot answer this"), w)
	}
	t := r.tally()
	switch r.step {
	case stepConfirm:
		q := fmt.Sprintf(" Land %d of %d file(s), %d of %d hunk(s)? ", t.files, t.allFiles, t.hunks, t.allHunks)
		s := st.CardTitle.Render(q) + bindingsLine(st, keys.Yes, keys.No)
		if fl := r.landingFlagged(); len(fl) > 0 {
			s += "  " + st.Reveal.Render("⚑ includes "+textsafe.Line(strings.Join(fl, ", ")))
		}
		return padTo(s, w)
	case stepReason:
		s := st.CardKey.Render(" "+r.edit.prompt) + st.Text.Render(r.edit.value()) + st.CardKey.Render("█")
		if ansi.StringWidth(s) > w {
			s = ansi.TruncateLeft(s, ansi.StringWidth(s)-w, "…")
		}
		return padTo(s, w)
	}
	if r.err != "" {
		return padTo(" "+bindingsLine(st, keys.ReviewReject), w)
	}
	if t.files == 0 {
		return padTo(st.Asked.UnsetBackground().Render(" nothing accepted — ")+bindingsLine(st, keys.ReviewReject), w)
	}
	ks := bindingsLine(st, keys.ReviewApprove, keys.ReviewReject)
	if w < 100 { // the short forms
		ks = shortKey(st, keys.ReviewApprove, "approve…") + "  " + shortKey(st, keys.ReviewReject, "reject…")
	}
	// the keys stay whole: the tally shortens, then goes
	for _, tally := range []string{
		fmt.Sprintf(" accepting %d/%d file(s), %d/%d hunk(s)  ", t.files, t.allFiles, t.hunks, t.allHunks),
		fmt.Sprintf(" %d/%d files  ", t.files, t.allFiles),
		" ",
	} {
		if s := st.Muted.Render(tally) + ks; ansi.StringWidth(s) <= w || tally == " " {
			return padTo(s, w)
		}
	}
	return ""
}

// drawRow draws viewer row ri of the selected file, from the cache when
// the same row was drawn before at this width and in this state.
func (r *reviewScreen) drawRow(ri, w int) string {
	c := r.diff
	row := r.rows()[ri]
	on := r.fileOn[r.cur]
	if row.hunk >= 0 {
		on = r.hunkOn[r.cur][row.hunk]
	}
	k := renderKey{file: r.cur, row: ri, width: w, split: r.split, on: on, sel: row.hunk >= 0 && row.hunk == r.hunk && r.focus == focusDiff}
	if s, ok := c.drawn[k]; ok {
		return s
	}
	if len(c.drawn) >= maxRendered {
		clear(c.drawn)
	}
	s := c.draw(r.files[r.cur], r.cur, row, w, r.split, on, k.sel)
	c.drawn[k] = s
	return s
}

// draw renders one row.
func (c *diffCache) draw(f patch.File, fi int, row diffRow, w int, split, on, sel bool) string {
	col := c.colors
	var b strings.Builder
	switch row.kind {
	case rowFlag:
		return fit(" "+col.reveal+textsafe.Line(row.text), w)
	case rowInfo:
		return fit(" "+col.muted+textsafe.Line(row.text), w)
	case rowHunk:
		mark := "  "
		if sel {
			mark = col.accent + "▶ \x1b[39m"
		}
		box := "[✓]"
		if !on {
			box = "[ ]"
		}
		b.WriteString(mark + col.accent + box + "\x1b[39m " + col.muted + textsafe.Line(row.text))
		if !on {
			b.WriteString(col.warn + "  rejected: will not land")
		}
		return fit(b.String(), w)
	case rowNote:
		return fit(" "+col.muted+textsafe.Line(row.text), w)
	}
	digits := c.digits(f, fi)
	if !split {
		g := lineNo(row.old, digits) + " " + lineNo(row.new, digits) + " "
		if row.part > 0 {
			g = strings.Repeat(" ", 2*digits+2)
		}
		return c.codeSide(f, fi, row.kind, g, row.text, row.part, w, on)
	}
	lw := (w - 1) / 2
	lg, rg := lineNo(row.old, digits)+" ", lineNo(row.new, digits)+" "
	if row.part > 0 {
		lg, rg = strings.Repeat(" ", digits+1), strings.Repeat(" ", digits+1)
	}
	left := c.codeSide(f, fi, row.kind, lg, row.text, row.part, lw, on)
	right := c.codeSide(f, fi, row.right, rg, row.rtext, row.part, w-1-lw, on)
	return left + col.sep + "│\x1b[39m" + right
}

// codeSide is one side of a code row: gutter, sign, highlighted text, in
// the row's tint. A rejected hunk is drawn muted and untinted.
//
// Piece part of a wrapped line shows its cells [part·cw, (part+1)·cw) with
// ↪ in the sign column; a side whose line has fewer pieces is blank.
func (c *diffCache) codeSide(f patch.File, fi int, kind rowKind, gutter, text string, part, w int, on bool) string {
	col := c.colors
	if kind == rowNone {
		return strings.Repeat(" ", w)
	}
	sign, signSGR, bg := " ", col.muted, ""
	switch kind {
	case rowAdd:
		sign, signSGR, bg = "+", col.add, col.addBG
	case rowDel:
		sign, signSGR, bg = "-", col.del, col.delBG
	}
	if !on {
		signSGR, bg = col.muted, ""
	}
	cw := max(w-ansi.StringWidth(gutter)-1, 1)
	if part > 0 {
		if textWidth(text) <= part*cw {
			return strings.Repeat(" ", w) // this side's line has ended
		}
		sign = "↪"
	}
	var code strings.Builder
	if on {
		c.code(&code, c.lexer(f, fi), text, bg, false)
	} else {
		code.WriteString(col.muted)
		c.cleanRun(&code, text, col.muted, "")
	}
	s := code.String()
	if part > 0 || ansi.StringWidth(s) > cw {
		s = ansi.Cut(s, part*cw, (part+1)*cw)
	}
	return fit(bg+col.muted+gutter+signSGR+sign+s, w)
}

func lineNo(n, digits int) string {
	if n == 0 {
		return strings.Repeat(" ", digits)
	}
	return fmt.Sprintf("%*d", digits, n)
}

// numWidth is how many digits the file's largest line number needs.
func numWidth(f patch.File) int {
	hi := 0
	for _, h := range f.Hunks {
		hi = max(hi, h.OldStart+h.OldCount, h.NewStart+h.NewCount)
	}
	return max(len(strconv.Itoa(hi)), 3)
}

// keysLine renders "[k] desc" pairs.
func bindingsLine(st themes.Styles, bs ...key.Binding) string {
	var parts []string
	for _, b := range bs {
		h := b.Help()
		parts = append(parts, st.CardKey.Render("["+h.Key+"]")+" "+st.Text.Render(h.Desc))
	}
	return strings.Join(parts, "  ")
}

func shortKey(st themes.Styles, b key.Binding, desc string) string {
	return st.CardKey.Render("["+b.Help().Key+"]") + " " + st.Text.Render(desc)
}

func allTrue(bs []bool) bool {
	for _, b := range bs {
		if !b {
			return false
		}
	}
	return true
}

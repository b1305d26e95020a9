package tui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/runner/patch"
	"github.com/sentinelhq/sentinel/themes"
	"github.com/sentinelhq/sentinel/tui/syntax"
)

// rowKind is what one row of the diff viewer shows.
type rowKind uint8

const (
	rowNone rowKind = iota // an empty side of a side-by-side row
	rowFlag                // why a file is flagged
	rowInfo                // status, modes, rename, binary
	rowHunk                // an @@ line
	rowCtx
	rowAdd
	rowDel
	rowNote // "\ No newline at end of file"
)

// diffRow is one row of the viewer. In side-by-side rows the left side is
// kind/old/text and the right side right/new/rtext.
type diffRow struct {
	kind     rowKind
	part     int // a long line wraps: 0 is its first row, then 1, 2…
	hunk     int // -1 for the file's own rows
	old, new int // line numbers, 0 for none
	text     string
	right    rowKind
	rtext    string
}

// rowsKey names the rows of one file in one layout: long lines wrap, so
// the rows depend on the width.
type rowsKey struct {
	file, width int
	split       bool
}

// renderKey names one drawn row: the same row drawn at the same width in
// the same state is the same string.
type renderKey struct {
	file, row, width int
	split, on, sel   bool
}

// maxRendered bounds the drawn-row cache; it is cleared when full.
const maxRendered = 20000

// diffCache keeps the viewer fast on large diffs: rows are built once per
// file and layout, each drawn row is kept by width and state, and only the
// rows on screen are ever highlighted.
type diffCache struct {
	rowsOf   map[rowsKey][]diffRow
	lexerOf  map[int]*syntax.Lang
	digitsOf map[int]int
	drawn    map[renderKey]string
	pal      themes.Palette
	noColor  bool
	colors   diffColors
	styleSGR map[syntax.Kind]string
	syntax   bool // tokens are coloured (not with NO_COLOR)
}

func newDiffCache() *diffCache {
	return &diffCache{rowsOf: map[rowsKey][]diffRow{}, lexerOf: map[int]*syntax.Lang{}, digitsOf: map[int]int{}, drawn: map[renderKey]string{}}
}

// rows returns the viewer rows of files[fi], building them on first use.
func (c *diffCache) rows(files []patch.File, fi int, split bool, width int) []diffRow {
	k := rowsKey{fi, width, split}
	if r, ok := c.rowsOf[k]; ok {
		return r
	}
	if len(c.rowsOf) > 16 {
		clear(c.rowsOf)
	}
	r := wrapRows(buildRows(files[fi], split), c.digits(files[fi], fi), split, width)
	c.rowsOf[k] = r
	return r
}

// codeWidths is how many cells of text fit beside the gutters: the whole
// row's when unified, each side's when side by side.
func codeWidths(d int, split bool, w int) (left, right int) {
	if !split {
		return max(w-(2*d+2)-1, 1), 0
	}
	lw := (w - 1) / 2
	return max(lw-(d+1)-1, 1), max(w-1-lw-(d+1)-1, 1)
}

// wrapRows adds a row under each line too long for the view for every
// further piece of it: a diff must never hide the end of a line.
func wrapRows(rows []diffRow, digits int, split bool, w int) []diffRow {
	lw, rw := codeWidths(digits, split, w)
	pieces := func(text string, cw int) int { return max((textWidth(text)+cw-1)/cw, 1) }
	var out []diffRow
	for i, row := range rows {
		if out != nil {
			out = append(out, row)
		}
		if row.kind == rowHunk || row.kind == rowFlag || row.kind == rowInfo || row.kind == rowNote {
			continue
		}
		n := pieces(row.text, lw)
		if split {
			n = max(n, pieces(row.rtext, rw))
		}
		if n > 1 && out == nil { // the first long line: copy what came before
			out = append(make([]diffRow, 0, len(rows)+n), rows[:i+1]...)
		}
		for p := 1; p < n; p++ {
			cont := row
			cont.part = p
			out = append(out, cont)
		}
	}
	if out == nil {
		return rows // nothing wraps
	}
	return out
}

// textWidth is how many cells a line of the file takes once drawn (tabs
// expanded, hidden characters spelled out).
func textWidth(s string) int {
	plain := true
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			plain = false
			break
		}
	}
	if plain {
		return len(s)
	}
	var b strings.Builder
	(&diffCache{}).cleanRun(&b, s, "", "")
	return ansi.StringWidth(b.String())
}

// buildRows lays out a file: its flag and facts, then each hunk.
func buildRows(f patch.File, split bool) []diffRow {
	n := 8
	for _, h := range f.Hunks {
		n += len(h.Lines) + 1
	}
	out := make([]diffRow, 0, n)
	info := func(kind rowKind, s string) { out = append(out, diffRow{kind: kind, hunk: -1, text: s}) }
	if f.Flagged {
		info(rowFlag, "⚑ runs code later: "+f.FlagReason)
	}
	switch f.Status {
	case patch.Added:
		info(rowInfo, "new file · mode "+f.NewMode)
	case patch.Deleted:
		info(rowInfo, "deleted file · mode "+f.OldMode)
	case patch.Renamed:
		info(rowInfo, "renamed from "+f.OldPath)
	}
	if f.OldMode != "" && f.NewMode != "" && f.OldMode != f.NewMode {
		info(rowInfo, "mode "+f.OldMode+" → "+f.NewMode)
	}
	if f.Binary {
		info(rowInfo, "binary file: content not shown; it lands or stays as a whole")
	} else if f.Whole() && len(f.Hunks) > 0 {
		info(rowInfo, "lands or stays as a whole")
	}
	if len(f.Hunks) == 0 && !f.Binary && f.Status != patch.Mode && f.Status != patch.Renamed {
		info(rowInfo, "no content change")
	}
	for hi, h := range f.Hunks {
		out = append(out, diffRow{kind: rowHunk, hunk: hi, text: h.Header})
		old, nw := h.OldStart, h.NewStart
		var dels, adds []diffRow // a change block waiting to be paired (split view)
		flush := func() {
			for i := 0; i < max(len(dels), len(adds)); i++ {
				r := diffRow{hunk: hi}
				if i < len(dels) {
					r.kind, r.old, r.text = rowDel, dels[i].old, dels[i].text
				}
				if i < len(adds) {
					r.right, r.new, r.rtext = rowAdd, adds[i].new, adds[i].text
				}
				out = append(out, r)
			}
			dels, adds = dels[:0], adds[:0]
		}
		for _, l := range h.Lines {
			body := l[1:]
			switch l[0] {
			case ' ':
				if split {
					flush()
					out = append(out, diffRow{kind: rowCtx, hunk: hi, old: old, new: nw, text: body, right: rowCtx, rtext: body})
				} else {
					out = append(out, diffRow{kind: rowCtx, hunk: hi, old: old, new: nw, text: body})
				}
				old++
				nw++
			case '-':
				if split {
					dels = append(dels, diffRow{old: old, text: body})
				} else {
					out = append(out, diffRow{kind: rowDel, hunk: hi, old: old, text: body})
				}
				old++
			case '+':
				if split {
					adds = append(adds, diffRow{new: nw, text: body})
				} else {
					out = append(out, diffRow{kind: rowAdd, hunk: hi, new: nw, text: body})
				}
				nw++
			default:
				flush()
				out = append(out, diffRow{kind: rowNote, hunk: hi, text: strings.TrimPrefix(l, `\ `)})
			}
		}
		flush()
	}
	return out
}

// diffColors are the SGR sequences the viewer writes by hand: drawing
// thousands of short runs through lipgloss would be too slow.
type diffColors struct {
	text, muted, add, del, accent, warn, danger, sep string
	addBG, delBG                                     string
	reveal                                           string // a revealed invisible character
}

// prepare readies the colours and the syntax style for the styles in use,
// dropping every drawn row when they changed.
func (c *diffCache) prepare(st themes.Styles) {
	if c.styleSGR != nil && c.pal == st.Palette && c.noColor == st.NoColor {
		return
	}
	c.pal, c.noColor = st.Palette, st.NoColor
	clear(c.drawn)
	c.styleSGR = map[syntax.Kind]string{}
	p := st.Palette
	if st.NoColor {
		c.colors = diffColors{reveal: "\x1b[1;4m"}
		c.syntax = false
		return
	}
	light := isLight(p.Foreground)
	c.colors = diffColors{
		text: fgSGR(p.Foreground), muted: fgSGR(p.Muted), add: fgSGR(p.OK), del: fgSGR(p.Danger),
		accent: fgSGR(p.Accent), warn: fgSGR(p.Warn), danger: fgSGR(p.Danger), sep: fgSGR(p.Border),
		reveal: fgSGR(p.Danger) + "\x1b[1;4m",
	}
	c.syntax = true
	if strings.HasPrefix(p.Foreground, "#") { // truecolour themes get tinted lines
		c.colors.addBG, c.colors.delBG = "\x1b[48;2;18;38;30m", "\x1b[48;2;45;18;22m"
		if light {
			c.colors.addBG, c.colors.delBG = "\x1b[48;2;230;255;236m", "\x1b[48;2;255;235;233m"
		}
	}
}

// fgSGR is the foreground sequence for a palette colour.
func fgSGR(col string) string {
	if strings.HasPrefix(col, "#") {
		r, g, b := hexRGB(col)
		return fmt.Sprintf("\x1b[38;2;%d;%d;%dm", r, g, b)
	}
	if _, err := strconv.Atoi(col); err == nil {
		return "\x1b[38;5;" + col + "m"
	}
	return ""
}

func hexRGB(col string) (r, g, b int) {
	h := strings.TrimPrefix(col, "#")
	if len(h) == 3 {
		h = string([]byte{h[0], h[0], h[1], h[1], h[2], h[2]})
	}
	v, _ := strconv.ParseUint(h, 16, 32)
	return int(v >> 16 & 0xff), int(v >> 8 & 0xff), int(v & 0xff)
}

// isLight guesses a light background from a dark foreground colour.
func isLight(fg string) bool {
	if !strings.HasPrefix(fg, "#") {
		return false
	}
	r, g, b := hexRGB(fg)
	return 299*r+587*g+114*b < 128*1000
}

// tokenSGR is the foreground for a syntax token type, from the theme's
// palette (syntax.go).
func (c *diffCache) tokenSGR(t syntax.Kind) string {
	if s, ok := c.styleSGR[t]; ok {
		return s
	}
	s := c.colors.text
	if c.syntax {
		col, bold := syntaxColour(c.pal, t)
		if sgr := fgSGR(col); sgr != "" {
			s = sgr
		}
		if bold {
			s += "\x1b[1m"
		}
	}
	c.styleSGR[t] = s
	return s
}

// digits is how many digits the file's line numbers take.
func (c *diffCache) digits(f patch.File, fi int) int {
	d, ok := c.digitsOf[fi]
	if !ok {
		d = numWidth(f)
		c.digitsOf[fi] = d
	}
	return d
}

// lexer picks the syntax for a file by name, then by a #! line; nil means
// plain text.
func (c *diffCache) lexer(f patch.File, fi int) *syntax.Lang {
	if l, ok := c.lexerOf[fi]; ok {
		return l
	}
	first := ""
	if len(f.Hunks) > 0 && len(f.Hunks[0].Lines) > 0 {
		first = f.Hunks[0].Lines[0][1:]
	}
	l := syntax.ForFile(f.Path, first)
	c.lexerOf[fi] = l
	return l
}

// code writes one line of the file's text, highlighted, with tabs expanded
// and every control or invisible formatting character (bidi overrides,
// zero-width spaces) spelled out as <U+XXXX>: a diff must show all of what
// lands. lineSGR restores the line's background after a revealed character.
func (c *diffCache) code(b *strings.Builder, lex *syntax.Lang, text, lineSGR string, plain bool) {
	if plain || lex == nil || !c.syntax {
		b.WriteString(c.colors.text)
		c.cleanRun(b, text, c.colors.text, lineSGR)
		return
	}
	last := ""
	for _, tok := range lex.Tokens(text) {
		sgr := c.tokenSGR(tok.Kind)
		if sgr != last {
			if strings.Contains(last, "\x1b[1m") {
				b.WriteString("\x1b[22m")
			}
			b.WriteString(sgr)
			last = sgr
		}
		c.cleanRun(b, tok.Text, sgr, lineSGR)
	}
}

// cleanRun writes s as textsafe.Line shows it, hidden characters (and
// invalid UTF-8) in the reveal colour.
func (c *diffCache) cleanRun(b *strings.Builder, s, sgr, lineSGR string) {
	for _, p := range textsafe.Pieces(s, false) {
		if p.Hidden {
			fmt.Fprintf(b, "%s%s\x1b[m%s%s", c.colors.reveal, p.Text, lineSGR, sgr)
		} else {
			b.WriteString(p.Text)
		}
	}
}

// fit truncates or pads a drawn row to exactly w cells and ends every style.
func fit(s string, w int) string {
	if sw := ansi.StringWidth(s); sw > w {
		s = ansi.Truncate(s, w, "…")
	} else {
		s += strings.Repeat(" ", w-sw)
	}
	return s + "\x1b[m"
}

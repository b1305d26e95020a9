package tui

// Key rows and the bottom section never lose a key to a narrow or short
// screen: "[k] desc" rows wrap (a part wider than the screen keeps its key
// and shortens its description), the footer drops the least needed hints
// before any essential one, and the bottom section drops its least
// important lines, never a title or a key row.

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/sentinelhq/sentinel/themes"
)

// keyParts renders bindings as "[k] desc" parts.
func keyParts(st themes.Styles, bs []key.Binding) []string {
	parts := make([]string, 0, len(bs))
	for _, b := range bs {
		h := b.Help()
		parts = append(parts, st.CardKey.Render("["+h.Key+"]")+" "+st.Text.Render(h.Desc))
	}
	return parts
}

// wrapParts packs parts into rows of exactly w cells, each led by a space,
// two spaces between parts; lead is put before the first part. A lead
// wider than the row is wrapped at its spaces, and a part that does not
// fit after it starts a row: a question never hides the key that answers
// it (at 60 columns X's question ran past the edge with its [y] yes).
func wrapParts(lead string, parts []string, w int) []string {
	var rows []string
	if lw := max(w-1, 1); ansi.StringWidth(lead) > lw {
		lines := strings.Split(ansi.Wrap(lead, lw, ""), "\n")
		for _, l := range lines[:len(lines)-1] {
			rows = append(rows, padTo(" "+l, w))
		}
		lead = lines[len(lines)-1]
	}
	cur := " " + lead
	empty := true
	for _, p := range parts {
		if pw := ansi.StringWidth(p); pw > w-1 {
			p = ansi.Truncate(p, max(w-1, 1), "…") // the key comes first and stays
		}
		sep := "  "
		if empty {
			sep = ""
		}
		if strings.TrimSpace(ansi.Strip(cur)) != "" && ansi.StringWidth(cur)+len(sep)+ansi.StringWidth(p) > w {
			rows = append(rows, padTo(cur, w))
			cur, sep = " ", ""
		}
		cur += sep + p
		empty = false
	}
	return append(rows, padTo(cur, w))
}

// fitFooter is the short help on one row of w cells: while it is too wide
// the hints after the first are dropped in order, except the last keep
// ones; then only the keys are shown.
func (c *chrome) fitFooter(bs []key.Binding, keep, w int) string {
	bs = append([]key.Binding{}, bs...)
	c.help.SetWidth(0) // no truncation: this fits the row itself
	for {
		s := " " + c.help.ShortHelpView(bs)
		if ansi.StringWidth(s) <= w || len(bs) <= 1+keep {
			if ansi.StringWidth(s) <= w {
				return padTo(s, w)
			}
			break
		}
		bs = append(bs[:1], bs[2:]...)
	}
	// each hint's first word, then the keys alone
	short := make([]key.Binding, len(bs))
	for i, b := range bs {
		h := b.Help()
		d, _, _ := strings.Cut(h.Desc, " ")
		short[i] = key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(h.Key, strings.TrimRight(d, ":")))
	}
	if s := " " + c.help.ShortHelpView(short); ansi.StringWidth(s) <= w {
		return padTo(s, w)
	}
	var ks []string
	for _, b := range bs {
		ks = append(ks, c.styles.CardKey.Render(b.Help().Key))
	}
	return padTo(" "+strings.Join(ks, " "), w)
}

// Priorities of bottom-section lines: when the section is taller than the
// screen allows, the lowest go first, from the end; prioKeep lines (titles,
// key rows, what is being typed) always stay. prioFact lines are what a card
// asks to approve (the command, path, host, what "always" covers): they go
// last, and a card missing one cannot be approved.
const (
	prioKeep = iota
	prioFact
	prioHigh
	prioMid
	prioLow
)

// block is lines with a priority each.
type block struct {
	lines []string
	prio  []int
}

func (b *block) add(prio int, lines ...string) {
	for _, l := range lines {
		b.lines = append(b.lines, l)
		b.prio = append(b.prio, prio)
	}
}

func (b *block) addBlock(o block) {
	b.lines = append(b.lines, o.lines...)
	b.prio = append(b.prio, o.prio...)
}

// fit drops the lowest-priority lines, last first, until at most n are
// left; if the kept lines alone are too many, the last n stay.
func (b block) fit(n int) []string {
	lines, _ := b.fitKept(n)
	return lines
}

// fitKept is fit that also says which of b's lines stayed.
func (b block) fitKept(n int) ([]string, []bool) {
	kept := make([]bool, len(b.lines))
	left := len(b.lines)
	for i := range kept {
		kept[i] = true
	}
	for p := prioLow; p > prioKeep && left > n; p-- {
		for i := len(b.lines) - 1; i >= 0 && left > n; i-- {
			if kept[i] && b.prio[i] == p {
				kept[i] = false
				left--
			}
		}
	}
	for i := 0; i < len(b.lines) && left > max(n, 0); i++ {
		if kept[i] {
			kept[i] = false
			left--
		}
	}
	var lines []string
	for i, l := range b.lines {
		if kept[i] {
			lines = append(lines, l)
		}
	}
	return lines, kept
}

package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/themes"
)

// tok is a run of text on the approval card; a special tok is an invisible
// or look-alike character spelled out as <U+XXXX>.
type tok struct {
	s       string
	special bool
}

// reveal spells out everything in s that is not printable ASCII (see
// textsafe.Strict) and reports how many characters it spelled out.
func reveal(s string) ([]tok, int) {
	var out []tok
	n := 0
	for _, p := range textsafe.Pieces(s, true) {
		if p.Hidden {
			n++
		}
		out = append(out, tok{s: p.Text, special: p.Hidden})
	}
	return out, n
}

// wrapToks breaks tokens into lines of at most w cells. A special token is
// never split; plain text is split at any character.
func wrapToks(toks []tok, w int) [][]tok {
	w = max(w, 8)
	var lines [][]tok
	var cur []tok
	used := 0
	for _, t := range toks {
		if t.special {
			tw := len(t.s)
			if used+tw > w && used > 0 {
				lines, cur, used = append(lines, cur), nil, 0
			}
			cur = append(cur, t)
			used += tw
			continue
		}
		rest := t.s
		for rest != "" {
			room := w - used
			if room <= 0 {
				lines, cur, used = append(lines, cur), nil, 0
				room = w
			}
			take := min(room, len(rest)) // plain tokens are ASCII: one byte, one cell
			cur = append(cur, tok{s: rest[:take]})
			used += take
			rest = rest[take:]
		}
	}
	if len(cur) > 0 || len(lines) == 0 {
		lines = append(lines, cur)
	}
	return lines
}

func renderToks(st themes.Styles, toks []tok) string {
	var b strings.Builder
	for _, t := range toks {
		if t.special {
			b.WriteString(st.Reveal.Render(t.s))
		} else {
			b.WriteString(st.CardValue.Render(t.s))
		}
	}
	return b.String()
}

// padTo pads or truncates a styled string to exactly w cells.
func padTo(s string, w int) string {
	sw := ansi.StringWidth(s)
	if sw > w {
		return ansi.Truncate(s, w, "")
	}
	return s + strings.Repeat(" ", w-sw)
}

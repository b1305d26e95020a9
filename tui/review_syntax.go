package tui

import (
	"github.com/sentinelhq/sentinel/themes"
	"github.com/sentinelhq/sentinel/tui/syntax"
)

// syntaxColour is the palette colour a token of the review's diff is drawn
// in, and whether it is bold: the theme's own colours, so the diff matches
// the rest of the screen and a 16-colour theme stays in its 16 colours.
func syntaxColour(p themes.Palette, k syntax.Kind) (col string, bold bool) {
	switch k {
	case syntax.Comment:
		return p.Muted, false
	case syntax.Keyword:
		return p.Approval, false
	case syntax.Constant, syntax.Number:
		return p.Warn, false
	case syntax.String:
		return p.Tool, false
	case syntax.Function:
		return p.Accent, false
	case syntax.Key:
		return p.Coder, false
	case syntax.Heading:
		return p.Accent, true
	}
	return p.Foreground, false
}

package tui

import (
	"github.com/alecthomas/chroma/v2"
	"github.com/sentinelhq/sentinel/themes"
)

// syntaxColour is the palette colour a token of the review's diff is drawn
// in, and whether it is bold. The theme's own colours, not a highlighter's
// style: the diff matches the rest of the screen, a 16-colour theme stays
// in its 16 colours, and no style registry is loaded at every start of the
// binary (the hook, `sandbox run`).
func syntaxColour(p themes.Palette, t chroma.TokenType) (col string, bold bool) {
	switch {
	case t.InCategory(chroma.Comment):
		return p.Muted, false
	case t == chroma.KeywordConstant:
		return p.Warn, false
	case t.InCategory(chroma.Keyword):
		return p.Approval, t == chroma.KeywordDeclaration || t == chroma.KeywordNamespace
	case t.InSubCategory(chroma.LiteralString):
		return p.Tool, false
	case t.InSubCategory(chroma.LiteralNumber):
		return p.Warn, false
	case t == chroma.NameFunction, t == chroma.NameFunctionMagic, t == chroma.NameClass, t == chroma.NameTag:
		return p.Accent, false
	case t == chroma.NameBuiltin, t == chroma.NameBuiltinPseudo, t == chroma.NameAttribute, t == chroma.NameDecorator:
		return p.Coder, false
	case t == chroma.GenericDeleted, t == chroma.NameException:
		return p.Danger, false
	case t == chroma.GenericInserted:
		return p.OK, false
	case t == chroma.GenericHeading, t == chroma.GenericSubheading:
		return p.Accent, true
	}
	return p.Foreground, false
}

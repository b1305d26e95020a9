package tui

import (
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner/patch"
	"github.com/sentinelhq/sentinel/themes"
)

// The diff's code is coloured from the theme: a keyword, a string and a
// comment each in their palette colour — truecolour in the dark and light
// themes, the basic ANSI colours in high contrast — and not at all with
// NO_COLOR.
func TestReviewSyntaxUsesTheThemesColours(t *testing.T) {
	f := patch.File{Path: "main.go"}
	line := `return "hi" // why`
	for _, p := range []themes.Palette{themes.Dark, themes.Light, themes.HighContrast} {
		c := newDiffCache()
		c.prepare(themes.Styles{Palette: p})
		var b strings.Builder
		c.code(&b, c.lexer(f, 0), line, "", false)
		got := b.String()
		for what, col := range map[string]string{"keyword": p.Approval, "string": p.Tool, "comment": p.Muted} {
			if !strings.Contains(got, fgSGR(col)) {
				t.Errorf("%s: the %s is not in the palette's %s: %q", p.Name, what, col, got)
			}
		}
		if p.Name == themes.NameHighContrast && strings.Contains(got, "38;2;") {
			t.Errorf("high contrast drew in truecolour: %q", got)
		}
	}
	c := newDiffCache()
	c.prepare(themes.Styles{Palette: themes.Dark, NoColor: true})
	var b strings.Builder
	c.code(&b, c.lexer(f, 0), line, "", false)
	if strings.Contains(b.String(), "\x1b[38") {
		t.Errorf("NO_COLOR still coloured the code: %q", b.String())
	}
}

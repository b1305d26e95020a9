package tui

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/themes"
)

// chrome is what every page shares and the root owns once: the options,
// the key map and help, the theme and its styles, the screen size and the
// footer's notice (flash). Pages hold the root's pointer; none keeps a copy.
type chrome struct {
	opts Options
	keys keyMap
	help help.Model

	styles     themes.Styles
	userThemes map[string]themes.Palette
	darkBG     bool

	width, height int
	flash         string // last notice or error, on the footer
}

func newChrome(opts Options) *chrome {
	c := &chrome{opts: opts.withDefaults(), keys: defaultKeys(), help: help.New(), darkBG: true, width: 80, height: 24}
	c.applyTheme()
	return c
}

// applyTheme rebuilds the styles from the configured theme, the terminal
// background and the user themes. A bad theme name falls back to auto and
// says so on the footer.
func (c *chrome) applyTheme() {
	p, err := themes.Resolve(c.opts.Theme, c.darkBG, c.userThemes)
	if err != nil {
		c.flash = err.Error()
		p, _ = themes.Resolve("auto", c.darkBG, nil)
	}
	c.styles = themes.New(p, c.opts.NoColor)
	st := c.styles
	c.help.Styles = help.Styles{
		ShortKey: st.CardKey, ShortDesc: st.Muted, ShortSeparator: st.Separator, Ellipsis: st.Separator,
		FullKey: st.CardKey, FullDesc: st.Text, FullSeparator: st.Separator,
	}
}

// flashRows is the notice wrapped to rows of w cells, nil when there is
// none: a page with room above its footer shows all but the last there,
// so no notice is cut.
func (c *chrome) flashRows(w int) []string {
	if c.flash == "" {
		return nil
	}
	var rows []string
	for _, l := range strings.Split(ansi.Wrap(textsafe.Line(c.flash), max(w-1, 1), " "), "\n") {
		rows = append(rows, padTo(c.styles.Asked.UnsetBackground().Render(" "+l), w))
	}
	return rows
}

// footer is the last notice, or else the short help for bindings.
func (c *chrome) footer(w int, bindings []key.Binding) string {
	if c.flash != "" {
		return padTo(c.styles.Asked.UnsetBackground().Render(" "+textsafe.Line(c.flash)), w)
	}
	// the last two (attach and quit on the lanes) are never dropped
	return c.fitFooter(bindings, 2, w)
}

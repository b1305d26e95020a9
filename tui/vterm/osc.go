package vterm

import (
	"bytes"
	"image/color"

	"github.com/charmbracelet/x/ansi"
)

// osc handles an operating system command. Only the default colours are
// kept (the coder may set and query them); titles, hyperlinks, the
// clipboard and the rest are dropped.
func (t *Terminal) osc(cmd int, data []byte) {
	t.flushGrapheme()
	var c *color.Color
	var def color.Color
	switch cmd {
	case 10, 110:
		c, def = &t.fg, defaultFg
	case 11, 111:
		c, def = &t.bg, defaultBg
	case 12, 112:
		c, def = &t.cursorColor, defaultCur
	default:
		return
	}
	parts := bytes.Split(data, []byte{';'})
	switch len(parts) {
	case 1: // reset
		*c = def
	case 2:
		if string(parts[1]) != "?" {
			if v := ansi.XParseColor(string(parts[1])); v != nil {
				*c = v
			}
			return
		}
		cur := *c
		if cur == nil {
			cur = def
		}
		rgb := ansi.XRGBColor{Color: cur}.String()
		switch cmd {
		case 10:
			t.reply(ansi.SetForegroundColor(rgb))
		case 11:
			t.reply(ansi.SetBackgroundColor(rgb))
		case 12:
			t.reply(ansi.SetCursorColor(rgb))
		}
	}
}

package tui

import (
	"io"
	"os"

	"github.com/charmbracelet/colorprofile"

	"github.com/sentinelhq/sentinel/themes"
	"github.com/sentinelhq/sentinel/tui/plain"
)

// PlainTags colours --plain's line tags the way the run screen colours
// its lines: each tag's label and style from the tags table (lanes.go), in
// the theme named (as --theme takes it; "auto" is the dark one, a line
// mode cannot ask the terminal), with the colours out can show. It is nil,
// no colour at all, when out is not a terminal or NO_COLOR is set.
func PlainTags(out io.Writer, theme string) plain.Paint {
	var user map[string]themes.Palette
	if dir, err := themes.Dir(); err == nil {
		user, _ = themes.LoadDir(dir)
	}
	p, err := themes.Resolve(theme, true, user)
	if err != nil {
		p = themes.Dark
	}
	return plainTags(colorprofile.Detect(out, os.Environ()), p)
}

// plainTags paints each tag of the table in palette p, its colours brought
// down to what prof shows; nil when prof shows no colour.
func plainTags(prof colorprofile.Profile, p themes.Palette) plain.Paint {
	if prof <= colorprofile.ASCII {
		return nil
	}
	st := themes.New(p, false)
	painted := make(map[string]string, len(tags))
	for _, t := range tags {
		s := t.style(st)
		painted[t.label] = s.Foreground(prof.Convert(s.GetForeground())).Render(t.label)
	}
	return func(tag string) string {
		if s, ok := painted[tag]; ok {
			return s
		}
		return tag
	}
}

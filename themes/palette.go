package themes

import (
	"fmt"
	"regexp"
	"strconv"
	"sync"
)

// Palette is a theme's small set of semantic colours. Each colour is a hex
// value ("#rrggbb" or "#rgb") or an ANSI colour number ("0"–"255").
type Palette struct {
	Name string `toml:"name"`
	// Base is the built-in theme ("dark", "light" or "high-contrast") whose
	// colours fill any left empty; user themes use it.
	Base string `toml:"base"`

	Foreground string `toml:"foreground"`
	Muted      string `toml:"muted"`
	Accent     string `toml:"accent"`     // focused pane titles, keys
	Border     string `toml:"border"`     // separators, unfocused titles
	StatusBG   string `toml:"status_bg"`  // status bar background
	CardBG     string `toml:"card_bg"`    // approval card background
	Highlight  string `toml:"highlight"`  // search matches, selection background
	System     string `toml:"system"`     // lane colours, as in --plain output
	Coder      string `toml:"coder"`      //
	Tool       string `toml:"tool"`       //
	Approval   string `toml:"approval"`   //
	Denied     string `toml:"denied"`     //
	Supervisor string `toml:"supervisor"` //
	Adversary  string `toml:"adversary"`  //
	OK         string `toml:"ok"`         // allowed, sandbox on
	Warn       string `toml:"warn"`       // asked, pending
	Danger     string `toml:"danger"`     // denied, sandbox off, revealed characters
}

// The built-in theme names.
const (
	NameDark         = "dark"
	NameLight        = "light"
	NameHighContrast = "high-contrast"
)

// Dark is the default theme on a dark terminal background.
var Dark = Palette{
	Name: NameDark, Foreground: "#d0d0d0", Muted: "#808080", Accent: "#87afff",
	Border: "#5f5f5f", StatusBG: "#262626", CardBG: "#1c1c1c", Highlight: "#5f5f00",
	System: "#8a8a8a", Coder: "#5fafff", Tool: "#d7af5f", Approval: "#af87ff",
	Denied: "#ff5f5f", Supervisor: "#5fd7af", Adversary: "#ff87d7",
	OK: "#5fd75f", Warn: "#ffd75f", Danger: "#ff5f5f",
}

// Light is the default theme on a light terminal background.
var Light = Palette{
	Name: NameLight, Foreground: "#262626", Muted: "#6c6c6c", Accent: "#005fd7",
	Border: "#a8a8a8", StatusBG: "#e4e4e4", CardBG: "#eeeeee", Highlight: "#ffff87",
	System: "#585858", Coder: "#005faf", Tool: "#875f00", Approval: "#5f00af",
	Denied: "#d70000", Supervisor: "#00875f", Adversary: "#af005f",
	OK: "#008700", Warn: "#af5f00", Danger: "#d70000",
}

// HighContrast uses the basic ANSI colours at full strength, which every
// terminal shows and most people can tell apart.
var HighContrast = Palette{
	Name: NameHighContrast, Foreground: "15", Muted: "7", Accent: "14",
	Border: "15", StatusBG: "0", CardBG: "0", Highlight: "3",
	System: "15", Coder: "14", Tool: "11", Approval: "13",
	Denied: "9", Supervisor: "10", Adversary: "13",
	OK: "10", Warn: "11", Danger: "9",
}

// Builtin returns the built-in palette with the given name.
func Builtin(name string) (Palette, bool) {
	switch name {
	case NameDark:
		return Dark, true
	case NameLight:
		return Light, true
	case NameHighContrast:
		return HighContrast, true
	}
	return Palette{}, false
}

// fields lists the colour fields with their TOML keys, for filling and validation.
func (p *Palette) fields() []struct {
	key string
	v   *string
} {
	return []struct {
		key string
		v   *string
	}{
		{"foreground", &p.Foreground}, {"muted", &p.Muted}, {"accent", &p.Accent},
		{"border", &p.Border}, {"status_bg", &p.StatusBG}, {"card_bg", &p.CardBG},
		{"highlight", &p.Highlight}, {"system", &p.System}, {"coder", &p.Coder},
		{"tool", &p.Tool}, {"approval", &p.Approval}, {"denied", &p.Denied},
		{"supervisor", &p.Supervisor}, {"adversary", &p.Adversary}, {"ok", &p.OK},
		{"warn", &p.Warn}, {"danger", &p.Danger},
	}
}

var hexColour = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`) })

// validColour reports whether s is a colour Lip Gloss understands.
func validColour(s string) bool {
	if hexColour().MatchString(s) {
		return true
	}
	n, err := strconv.Atoi(s)
	return err == nil && n >= 0 && n <= 255
}

// complete fills empty colours from the base theme and checks every colour.
func (p Palette) complete() (Palette, error) {
	baseName := p.Base
	if baseName == "" {
		baseName = NameDark
	}
	base, ok := Builtin(baseName)
	if !ok {
		return p, fmt.Errorf("base %q is not a built-in theme (use dark, light or high-contrast)", p.Base)
	}
	bf := base.fields()
	for i, f := range p.fields() {
		if *f.v == "" {
			*f.v = *bf[i].v
			continue
		}
		if !validColour(*f.v) {
			return p, fmt.Errorf("key %s: %q is not a colour (use #rrggbb, #rgb or 0-255)", f.key, *f.v)
		}
	}
	return p, nil
}

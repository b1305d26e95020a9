package tui

import (
	"image/color"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/sentinelhq/sentinel/themes"
)

func TestThemeFollowsBackgroundAndReloads(t *testing.T) {
	h := newHarness(t, testInfo(), "auto", 120, 40)
	title := func() string { return h.m.styles.TitleOn.Render("x") }
	if !strings.Contains(title(), "38;2;135;175;255") { // dark accent #87afff
		t.Fatalf("auto on a dark background should use the dark theme: %q", title())
	}
	h.send(tea.BackgroundColorMsg{Color: color.RGBA{R: 250, G: 250, B: 250, A: 255}})
	if !strings.Contains(title(), "38;2;0;95;215") { // light accent #005fd7
		t.Fatalf("a light background should switch to the light theme: %q", title())
	}

	h = newHarness(t, testInfo(), "mine", 120, 40)
	contains(t, h.screen(), `theme "mine" not found`)
	mine := themes.Dark
	mine.Name, mine.Accent = "mine", "#010203"
	h.send(themesMsg{palettes: map[string]themes.Palette{"mine": mine}})
	if !strings.Contains(title(), "38;2;1;2;3") {
		t.Fatalf("a reloaded user theme should apply at once: %q", title())
	}
}

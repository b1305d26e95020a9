package main

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/sentinelhq/sentinel/internal/config"
)

// Plain `sentinel config` on a 60-column terminal: no line is wider than the
// terminal (the note on a value an untrusted project file was refused ran
// to 113 cells), and no word is lost.
func TestConfigFitsANarrowTerminal(t *testing.T) {
	note := "ignored [\"make test\"] from /tmp/v37/pc/.sentinel/config.toml: the file is not trusted (sentinel config trust)"
	var b strings.Builder
	printSetSettings(&b, []config.Setting{
		{Key: "coder", Value: "claude", Source: "default"},
		{Key: "verify.commands", Note: note},
		{Key: "sandbox.network", Source: "default"},
	})
	got := fitLines(b.String(), 60)
	for _, l := range strings.Split(got, "\n") {
		if ansi.StringWidth(l) > 59 {
			t.Errorf("a line is %d cells wide on a 60-column terminal: %q", ansi.StringWidth(l), l)
		}
	}
	if strings.Join(strings.Fields(got), " ") != strings.Join(strings.Fields(b.String()), " ") {
		t.Errorf("wrapping changed the words:\n%s\nwant\n%s", got, b.String())
	}
}

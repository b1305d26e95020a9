package main

import (
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/config"
)

// A value an untrusted project file was refused is noted on a line of its
// own: the table's columns stay as narrow as the keys and values (a note
// in a cell made `sentinel config` 160 columns wide, issue 37.12).
func TestConfigNotesDoNotWidenTheTable(t *testing.T) {
	note := "ignored [\"make check\"] from /home/ada/src/some/long/project/.sentinel/config.toml: the file is not trusted (sentinel config trust)"
	var b strings.Builder
	printSettings(&b, []config.Setting{
		{Key: "coder", Value: "claude", Source: "default"},
		{Key: "verify.commands", Note: note},
		{Key: "verify.timeout", Value: "10m0s", Source: "default"},
	})
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	want := []string{
		"KEY              VALUE   SOURCE",
		"coder            claude  default",
		"verify.commands  -       unset",
		"  (" + note + ")",
		"verify.timeout   10m0s   default",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("sentinel config printed\n%s\nwant\n%s", b.String(), strings.Join(want, "\n"))
	}
}

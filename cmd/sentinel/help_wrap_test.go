package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestHelpFitsTheTerminal: --help of the commands with the longest texts
// fits a 60-column terminal ($COLUMNS when the output is not a terminal).
func TestHelpFitsTheTerminal(t *testing.T) {
	t.Setenv("COLUMNS", "60")
	for _, cmd := range []string{"run", "review", "exec", "config", "status", "console"} {
		args := []string{cmd, "--help"}
		root := newRoot(args)
		var out bytes.Buffer
		root.SetOut(&out)
		root.SetArgs(args)
		if err := root.Execute(); err != nil {
			t.Fatalf("%s --help: %v", cmd, err)
		}
		for _, l := range strings.Split(out.String(), "\n") {
			if ansi.StringWidth(l) > 60 {
				t.Errorf("%s --help has a line of %d cells at 60 columns: %q", cmd, ansi.StringWidth(l), l)
			}
		}
	}
}

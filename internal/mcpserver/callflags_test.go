//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// An exec that makes a file or a folder writable by every user of the
// machine is told as an in-place run's report tells it (placeflags),
// in the answer and on the server's standard error (ipatk12 row 3).
func TestExecTellsAFileMadeWorldWritable(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	write(t, filepath.Join(f.rw, "build", "out.o"), "obj\n")
	warn := &syncBuffer{}
	cs, _ := session(t, mustConfig(t, f.config(`exec_mode = "unrestricted"`)), Options{Helper: bin, Warn: warn})
	text := mustAllow(t, cs, "exec", map[string]any{"command": "chmod o+w notes.txt && chmod 777 build", "cwd": f.rw})
	for _, p := range []string{"notes.txt", "build"} {
		abs := filepath.Join(f.rw, p)
		if !strings.Contains(text, abs+": made") || !strings.Contains(text, "chmod ") {
			t.Errorf("the answer does not tell %s made writable:\n%s", p, text)
		}
		if !strings.Contains(warn.String(), "DANGEROUS: the call changed "+abs+": made") {
			t.Errorf("standard error does not tell %s made writable:\n%s", p, warn.String())
		}
	}
	// An ordinary write is not told.
	text = mustAllow(t, cs, "exec", map[string]any{"command": "echo more >> build/out.o", "cwd": f.rw})
	if strings.Contains(text, "the call changed") {
		t.Errorf("an ordinary write is told:\n%s", text)
	}
}

// A new default ACL on a folder of an rw path is told (the checkpoint
// records it; setfacl is not on every machine, so the diff is given).
func TestCallFlagsTellANewDefaultACL(t *testing.T) {
	root := t.TempDir()
	plain := &checkpoint.Entry{Kind: checkpoint.KindDir, Mode: 0o755}
	acl := &checkpoint.Entry{Kind: checkpoint.KindDir, Mode: 0o755, DefACL: "0200000001000700ffffffff"}
	p := &callPoint{diffs: []placeDiff{{root: root, flags: (&placeReads{}).flagsOf(root, &checkpoint.Manifest{}, []checkpoint.Change{
		{Path: ".", What: checkpoint.ModeOnly, Before: plain, After: acl},
		{Path: "src", What: checkpoint.ModeOnly, Before: acl, After: plain},
	})}}}
	lines := p.flagLines()
	if len(lines) != 1 || !strings.Contains(lines[0], root+": a new default ACL") || !strings.Contains(lines[0], "setfacl -k "+root) {
		t.Errorf("want one line telling the default ACL on %s, got %q", root, lines)
	}
}

// A changed file the person's Makefile includes (through a variable it
// assigns) and a program made in a folder the person's .envrc puts on
// PATH are told after exec, as an in-place run's report flags them.
func TestExecTellsWhatTheMakefileIncludesAndThePathRuns(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	write(t, filepath.Join(f.rw, "Makefile"), "SRCS := main.c\nDEPS := $(SRCS:.c=.d)\ninclude config/local.conf\n-include $(DEPS)\nall:\n\t$(MAKE) -f rules/extra.rules\n")
	write(t, filepath.Join(f.rw, "config", "local.conf"), "CFLAGS = -O2\n")
	write(t, filepath.Join(f.rw, "rules", "extra.rules"), "x:\n\ttrue\n")
	write(t, filepath.Join(f.rw, ".envrc"), "PATH_add tools\n")
	if err := os.MkdirAll(filepath.Join(f.rw, "tools"), 0o755); err != nil {
		t.Fatal(err)
	}
	warn := &syncBuffer{}
	cs, _ := session(t, mustConfig(t, f.config(`exec_mode = "unrestricted"`)), Options{Helper: bin, Warn: warn})
	text := mustAllow(t, cs, "exec", map[string]any{"cwd": f.rw, "command": "echo '$(shell touch /tmp/x)' >> config/local.conf; echo 'x: ; touch /tmp/y' > main.d; " +
		"echo '$(shell id)' >> rules/extra.rules; printf '#!/bin/sh\\n' > tools/git; chmod +x tools/git"})
	for p, want := range map[string]string{
		"config/local.conf": "your Makefile includes it (`include config/local.conf`)",
		"main.d":            "your Makefile includes it (`-include $(DEPS)`)",
		"rules/extra.rules": "your Makefile runs make on it (`$(MAKE) -f rules/extra.rules`)",
		"tools/git":         "in a folder on your PATH (your .envrc puts it on PATH",
	} {
		line := "the call changed " + filepath.Join(f.rw, p) + ": " + want
		if !strings.Contains(text, line) {
			t.Errorf("the answer does not say %q:\n%s", line, text)
		}
		if !strings.Contains(warn.String(), line) {
			t.Errorf("standard error does not say %q:\n%s", line, warn.String())
		}
	}
}

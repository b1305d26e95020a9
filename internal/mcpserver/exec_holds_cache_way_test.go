//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"testing"
)

// A new entry in a directory on the way to what the look reads — the
// folder holding the rw path, $HOME (Claude Code rewrites ~/.claude.json
// by rename), the XDG config folder — is no change to what git reads: the
// kept answer is still given. A change to an input the look watches in
// one of those folders still drops it.
func TestLookKeepsItsAnswerWhenADirectoryOnTheWayGainsAnEntry(t *testing.T) {
	f := newLookFixture(t)
	kept := f.settle(t)
	full := f.g.looks.full
	parent := filepath.Dir(f.root)
	write(t, filepath.Join(parent, "sibling.txt"), "x\n")
	if err := os.Mkdir(filepath.Join(parent, "sibling-dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(f.home, ".claude.json.tmp")
	write(t, tmp, "{}\n")
	if err := os.Rename(tmp, filepath.Join(f.home, ".claude.json")); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(f.xdg, "other-tool.conf"), "x\n")
	if got := f.answer(t); got != kept || f.g.looks.full != full {
		t.Fatalf("new entries beside the inputs dropped the kept answer: %d full looks", f.g.looks.full-full)
	}
	write(t, filepath.Join(f.home, ".gitconfig"), "[include]\n\tpath = "+filepath.Join(f.root, "g.cfg")+"\n")
	if f.answer(t); f.g.looks.full == full {
		t.Fatal("a new ~/.gitconfig was not noticed: the kept answer was given")
	}
}

package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Two in-place runs in one place once shared a placeholder: the first
// made .githooks (the person's core.hooksPath) to hold it read-only, the
// second's sandbox held it read-only too, and when the first ended and
// removed it the second's mount went with it and its coder made
// .githooks/pre-commit (h/ipatk11). Now a run holds its place for its
// whole life: no second run in it (or in a folder inside it) can start to
// hold its placeholders, so its end removes each one still empty, and
// flags one its own coder changed.
func TestPlaceholdersAreNeverHeldByAnotherInPlaceRun(t *testing.T) {
	home, root := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, ".local", "state"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	writeTestFile(t, filepath.Join(home, ".gitconfig"), "[core]\n\thooksPath = .githooks\n")
	writeTestFile(t, filepath.Join(root, "sub", "README"), "a folder in the place\n")
	p := &Project{Root: root}
	self, other := NewRunID(time.Now()), NewRunID(time.Now().Add(time.Second))
	hooks := filepath.Join(root, ".githooks")
	made := func() *gitGuard {
		g := &gitGuard{p: p}
		if dirs, err := gitHooksDirs(context.Background(), root, nil, []string{root}, &g.made); err != nil || len(dirs) != 1 {
			t.Fatalf("hooks dirs %q %v", dirs, err)
		}
		if _, err := os.Stat(hooks); err != nil {
			t.Fatal(err)
		}
		return g
	}
	lock, err := lockPlace(p, self, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	g := made()
	for _, where := range []string{root, filepath.Join(root, "sub")} {
		if l, err := lockPlace(&Project{Root: where}, other, time.Now()); err == nil || !strings.Contains(err.Error(), self) {
			l.Release()
			t.Fatalf("a second in-place run in %s while %s holds the place: %v", where, self, err)
		}
	}
	if flags := g.removePlaceholders(); len(flags) != 0 {
		t.Fatalf("an untouched placeholder flags %v", flags)
	}
	if _, err := os.Stat(hooks); !os.IsNotExist(err) {
		t.Fatalf("the run's end left its placeholder: %v", err)
	}
	// One this run's coder wrote into is kept and flagged.
	g = made()
	writeTestFile(t, filepath.Join(hooks, "pre-commit"), "#!/bin/sh\n")
	if flags := g.removePlaceholders(); len(flags) != 1 || !strings.Contains(flags[0].Reason, "DANGEROUS") {
		t.Fatalf("a hooks placeholder written during the run flags %v", flags)
	}
	lock.Release()
	second, err := lockPlace(p, other, time.Now())
	if err != nil {
		t.Fatalf("once the first run has ended: %v", err)
	}
	second.Release()
}

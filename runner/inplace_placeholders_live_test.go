package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Two in-place runs in one place: the first made .githooks (the person's
// core.hooksPath) to hold it read-only, the second's sandbox holds it
// read-only too. When the first ends while the second is live, the folder
// stays: removing it takes the second sandbox's read-only mount away, and
// its coder then made .githooks/pre-commit (h/ipatk11). Once no other run
// is live, the first run's end removes it as before.
func TestPlaceholdersStayWhileAnotherInPlaceRunIsLive(t *testing.T) {
	home, root := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, ".local", "state"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	writeTestFile(t, filepath.Join(home, ".gitconfig"), "[core]\n\thooksPath = .githooks\n")
	p := &Project{Root: root}
	self, other := NewRunID(time.Now()), NewRunID(time.Now().Add(time.Second))
	for _, id := range []string{self, other} {
		if err := os.MkdirAll(p.RunDir(id), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := writeMeta(p.RunDir(id), &Meta{ID: id, Status: StatusRunning, InPlace: true, Started: time.Now().UTC()}); err != nil {
			t.Fatal(err)
		}
	}
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
	lock, err := lockRun(p.RunDir(other)) // the other run is live
	if err != nil {
		t.Fatal(err)
	}
	g := made()
	g.removePlaceholders(self)
	if _, err := os.Stat(hooks); err != nil {
		t.Fatalf("the hooks folder another live run holds read-only was removed: %v", err)
	}
	// Kept for the other run, a placeholder this run's coder wrote into is
	// still this run's flag.
	if err := os.Remove(hooks); err != nil {
		t.Fatal(err)
	}
	g = made()
	writeTestFile(t, filepath.Join(hooks, "pre-commit"), "#!/bin/sh\n")
	if flags := g.removePlaceholders(self); len(flags) != 1 || !strings.Contains(flags[0].Reason, "DANGEROUS") {
		t.Fatalf("a hooks placeholder written during the run, kept for another live run, flags %v", flags)
	}
	if err := os.RemoveAll(hooks); err != nil {
		t.Fatal(err)
	}
	g = made()
	g.removePlaceholders(self)
	lock.release() // the other run has ended (killed: its record still says running)
	if err := os.Remove(hooks); err != nil {
		t.Fatal(err)
	}
	g = made()
	g.removePlaceholders(self)
	if _, err := os.Stat(hooks); !os.IsNotExist(err) {
		t.Fatalf("with no other live run the placeholder is not removed: %v", err)
	}
}

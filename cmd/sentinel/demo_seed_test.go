package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestDemoWarmsTheSeedOnceTheSampleIsWritten: the demo starts the Go build
// cache seed for its run's checks (--verify here) as soon as the sample's
// files are written, before git has made the sample's repository, not when
// the run starts after it.
func TestDemoWarmsTheSeedOnceTheSampleIsWritten(t *testing.T) {
	oldSay, oldWarm := demoSay, warmDemoSeed
	t.Cleanup(func() { demoSay, warmDemoSeed = oldSay, oldWarm })
	demoSay = func(string) {}
	dir := t.TempDir()
	var warmed []string
	var sawGoMod, sawGit bool
	warmDemoSeed = func(verify []string, d string) {
		warmed = append(append(warmed, d), verify...)
		_, err := os.Stat(filepath.Join(d, "go.mod"))
		sawGoMod = err == nil
		_, err = os.Stat(filepath.Join(d, ".git"))
		sawGit = err == nil
	}
	if err := makeSample(context.Background(), dir, []string{"go test ./..."}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(warmed, []string{dir, "go test ./..."}) {
		t.Fatalf("the seed was warmed with %q, want the sample dir and --verify's checks", warmed)
	}
	if !sawGoMod || sawGit {
		t.Fatalf("the seed was warmed with go.mod there: %v, .git there: %v; want the sample's files written and git not yet run", sawGoMod, sawGit)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil {
		t.Fatalf("the sample was not made: %v", err)
	}
}

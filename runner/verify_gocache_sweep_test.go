package runner

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A verification killed before its deferred removal leaves its ~100 MB Go
// cache behind; the next verification removes it, and only it.
func TestSweepRemovesOnlyCachesOfGoneProcesses(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	deadPid := gone.Process.Pid
	mk := func(name string) string {
		p := filepath.Join(parent, name)
		if err := os.MkdirAll(filepath.Join(p, "00"), 0o700); err != nil {
			t.Fatal(err)
		}
		return p
	}
	dead := mk(goCachePrefix + strconv.Itoa(deadPid) + "-123")
	live := mk(goCachePrefix + strconv.Itoa(os.Getpid()) + "-456")
	legacy := mk(goCachePrefix + "789")
	other := mk("something-else")

	dir, err := privateGoCache(t.Context(), parent, false, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("the cache of a gone process is still there: %v", err)
	}
	for _, keep := range []string{live, legacy, other, dir} {
		if _, err := os.Stat(keep); err != nil {
			t.Errorf("%s was removed: %v", keep, err)
		}
	}
}

// TestSeedBuildsOfGoneProcessesAreSwept: a seed build's directory that a
// Sentinel ended mid-build left behind (~60 MB each) is removed by the
// next build; one a live Sentinel is filling, and the seeds, stay.
func TestSeedBuildsOfGoneProcessesAreSwept(t *testing.T) {
	root := t.TempDir()
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	mk := func(name string) string {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Join(p, "cache"), 0o700); err != nil {
			t.Fatal(err)
		}
		return p
	}
	dead := mk(seedBuildPrefix + strconv.Itoa(gone.Process.Pid) + "-1")
	live := mk(seedBuildPrefix + strconv.Itoa(os.Getpid()) + "-2")
	seed := mk("0a1b2c-core")
	buildSeedFn = func(_ context.Context, dir, _ string, _ seedTier, _ *goSeedDir) error {
		if !strings.HasPrefix(filepath.Base(dir), seedBuildPrefix+strconv.Itoa(os.Getpid())+"-") {
			t.Errorf("a seed build's directory does not name its Sentinel: %s", dir)
		}
		return errors.New("stop here")
	}
	t.Cleanup(func() { buildSeedFn = buildSeed })
	if _, err := goSeedTier(t.Context(), root, seedTiers[0], nil); err == nil {
		t.Fatal("the stubbed build did not fail")
	}
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("the build of a gone Sentinel was left: %v", err)
	}
	for _, p := range []string{live, seed} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed: %v", filepath.Base(p), err)
		}
	}
}

package runner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/poll"
)

// TestWarmGoSeedStartsNothingNoCheckWillUse: the warm-up at a run's start
// asks what the verification asks — would a check that runs start go — so
// a Go module with no package yet (its detected go test and go vet are
// skipped) and checks that cannot run go start no seed build; adding the
// first package does.
func TestWarmGoSeedStartsNothingNoCheckWillUse(t *testing.T) {
	var builds atomic.Int32
	fakeSeedTiers(t, func(seedTier, *goSeedDir) { builds.Add(1) })
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module m\n"), 0o600)
	detected := []Check{{Command: "go test ./...", Source: "detected"}, {Command: "go vet ./...", Source: "detected"}}
	cases := []struct {
		name   string
		checks []Check
	}{
		{"a module with no Go packages yet", detected},
		{"--verify true", []Check{{Command: "true"}}},
		{"checks that cannot run go", []Check{{Command: "test -f go.mod"}, {Command: "grep -q module go.mod"}}},
	}
	for _, c := range cases {
		WarmGoSeed(dir, c.checks)
		if !noSeedFlights() {
			t.Errorf("%s: the warm-up started a seed build no check will use", c.name)
		}
	}
	if t.Failed() {
		return
	}
	if n := builds.Load(); n != 0 {
		t.Fatalf("%d seed builds started for checks that build no Go", n)
	}
	// The control: with a package, the same checks warm the seed.
	os.WriteFile(filepath.Join(dir, "m.go"), []byte("package m\n"), 0o600)
	WarmGoSeed(dir, detected)
	if noSeedFlights() && builds.Load() == 0 {
		t.Fatal("a module with a package did not warm the seed")
	}
}

// TestEndSeedBuildsRemovesItsBuildDir: a seed build this process started
// and ends at its exit (EndSeedBuilds) leaves no .building-* directory
// under the seed root; one of a Sentinel that died mid-build is removed by
// the next warm-up, even one that builds nothing.
func TestEndSeedBuildsRemovesItsBuildDir(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	started := make(chan string, 1)
	was := buildSeedFn
	buildSeedFn = func(ctx context.Context, dir, _ string, _ seedTier, _ *goSeedDir) error {
		os.MkdirAll(filepath.Join(dir, "cache", "00"), 0o700)
		select {
		case started <- dir:
		default:
		}
		<-ctx.Done() // a build under way until the process ends it
		return ctx.Err()
	}
	t.Cleanup(func() {
		if !poll.Until(time.Minute, noSeedFlights) { // a bound on a hang
			t.Error("the ended seed build never returned")
		}
		buildSeedFn = was
	})
	root, ok := seedRoot()
	if !ok {
		t.Skip("no user cache dir")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module m\n"), 0o600)
	WarmGoSeed(dir, []Check{{Command: "go test ./..."}})
	var building string
	select {
	case building = <-started:
	case <-time.After(time.Minute): // a bound on a hang
		t.Fatal("the seed build never started")
	}
	EndSeedBuilds()
	if _, err := os.Stat(building); !os.IsNotExist(err) {
		t.Errorf("the build this process ended left %s: %v", building, err)
	}

	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	dead := filepath.Join(root, seedBuildPrefix+strconv.Itoa(gone.Process.Pid)+"-1")
	os.MkdirAll(filepath.Join(dead, "cache"), 0o700)
	WarmGoSeed(dir, []Check{{Command: "true"}})
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("the build dir of a Sentinel that died was left: %v", err)
	}
}

package runner

import (
	"context"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/testdirs"
	"github.com/sentinelhq/sentinel/sandbox"
)

// TestMain lets this test binary serve as the seed's cache program
// (GoCacheProgArg) and the sandbox's helper (HelperArg), as the sentinel
// binary does.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == GoCacheProgArg {
		os.Exit(GoCacheProgMain(os.Args[2:]))
	}
	if len(os.Args) > 1 && os.Args[1] == SeedGuardArg {
		os.Exit(SeedGuardMain(os.Args[2:]))
	}
	if len(os.Args) > 1 && os.Args[1] == sandbox.HelperArg { // a verification's sandbox (Options.Helper unset)
		os.Exit(sandbox.HelperMain(os.Args[2:]))
	}
	if len(os.Args) > 1 && os.Args[1] == prebuildArg {
		os.Exit(prebuildMain())
	}
	// State and config dirs of this process's own: a test that only needs
	// them kept from the person's runs in parallel instead of setting its
	// own (t.Setenv); one that must see only its own files there sets its own.
	removeDirs, err := testdirs.Private("XDG_STATE_HOME", "XDG_CONFIG_HOME")
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	ServesSeedGuard()
	startPrebuild()
	code := m.Run()
	removeSharedSeed()
	removeDirs()
	os.Exit(code)
}

// The real seed build takes what it can from the person's build cache
// (here this machine's, which `go test` itself just used) instead of
// compiling it again: the seed holds entries whose time is the person's,
// older than the build.
func TestSeedBuildTakesThePersonsCompiledPackages(t *testing.T) {
	// The core seed (the same path as the full one, less CPU), built
	// through goSeedTier as a verification builds it, once per test
	// process (seed_shared_test.go): start is when that build started.
	seed, start := servedCoreSeed(t)
	dir := seed.dir
	// Its signed manifest names the standard packages it holds, closed
	// under dependencies (what a verification's imports are held against).
	if !seed.manifest.holds([]string{"testing", "fmt", "runtime", "testing/internal/testdeps"}) || seed.manifest.holds([]string{"net/http"}) {
		t.Errorf("the core seed lists %d packages: %v", len(seed.manifest.Packages), seed.manifest.Packages)
	}
	taken := 0
	for rel := range seed.manifest.Files {
		if !strings.HasSuffix(rel, "-a") {
			continue
		}
		id := strings.TrimSuffix(filepath.Base(rel), "-a")
		action, err := hex.DecodeString(id)
		if err != nil || len(action) != 32 {
			continue
		}
		if e, err := readEntry(filepath.Join(dir, "cache"), action, false); err == nil && e.time.Before(start) {
			taken++
		}
	}
	if taken == 0 {
		t.Fatalf("the seed took nothing from the person's build cache (%d files): it compiled everything again", len(seed.manifest.Files))
	}
	t.Logf("%d entries taken from the person's cache, in %s", taken, time.Since(start).Round(time.Millisecond))
}

// TestSeedCopySaysItWaits: copying the seed into a verification's cache
// goes on saying so, so a slow copy on a loaded machine is never silent.
func TestSeedCopySaysItWaits(t *testing.T) {
	_, release := fakeSeedBuilds(t)
	close(release)
	root, _ := seedRoot()
	if _, err := goSeed(context.Background(), root); err != nil {
		t.Fatal(err)
	}
	said := make(chan struct{}, 1)
	var copying atomic.Bool // what was said before the copy (waiting for the seed) does not count
	was := copySeedFn
	copySeedFn = func(s goSeedDir, dst string) error {
		copying.Store(true)
		select { // the copy ends only once the wait was said during it
		case <-said:
			return was(s, dst)
		case <-time.After(time.Minute): // a hang bound
			return errors.New("nothing was said while the seed was copied")
		}
	}
	t.Cleanup(func() { copySeedFn = was })
	dir, err := privateGoCache(context.Background(), t.TempDir(), true, nil, func(time.Duration) {
		if !copying.Load() {
			return
		}
		select {
		case said <- struct{}{}:
		default:
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "00", "a-d")); err != nil {
		t.Fatalf("the seed was not copied: %v", err)
	}
}

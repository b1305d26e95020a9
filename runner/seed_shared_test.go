package runner

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Three tests need the real core seed, built as Sentinel builds it (from
// the person's build cache, with this binary as the cache program), and
// each used to build its own in fresh state and cache dirs: 12-15 CPU-s
// apiece under -race (issue 33: the suite in minutes). They now share one
// per test process: the first to ask builds it, under a record key and a
// seed root of this process's own, and each test still gets fresh state
// and cache dirs of its own, holding that key and linking that root (as
// cmd/sentinel/internal/e2etest's SharedSeedEnv does for the e2e tests).
// Tests about how a seed is built, waited for or refused keep their own.

var sharedSeed struct {
	once         sync.Once
	dir, key     string    // the process's dir; the key's 64 hex digits
	buildStarted time.Time // when the first ask started the build
	built        string    // the seed's dir once a test had it built
}

// sharedSeedDirs points XDG_STATE_HOME and XDG_CACHE_HOME at fresh dirs
// holding the process's shared record key and seed root, and GOCACHE at
// the person's build cache (what the seed is built from).
func sharedSeedDirs(t *testing.T) (state, cache string) {
	t.Helper()
	sharedSeed.once.Do(func() {
		sweepSharedSeeds()
		d, err := os.MkdirTemp("", sharedSeedPrefix)
		if err != nil {
			t.Fatal(err)
		}
		k := make([]byte, 32)
		if _, err := rand.Read(k); err != nil {
			t.Fatal(err)
		}
		sharedSeed.dir, sharedSeed.key = d, hex.EncodeToString(k)
	})
	if sharedSeed.key == "" {
		t.Fatal("the shared seed's dirs could not be made")
	}
	person, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Skip("no go command:", err)
	}
	t.Setenv("GOCACHE", strings.TrimSpace(string(person)))
	state, cache = t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(state, "sentinel"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(state, "sentinel", "record.key"), []byte(sharedSeed.key), 0o600); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(sharedSeed.dir, "verify-go-seed")
	if err := os.MkdirAll(root, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(cache, "sentinel"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(root, filepath.Join(cache, "sentinel", "verify-go-seed")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_STATE_HOME", state)
	t.Setenv("XDG_CACHE_HOME", cache)
	return state, cache
}

// sharedCoreSeed is the shared core seed, built on the first ask (the
// environment as sharedSeedDirs leaves it), and when that build started.
func sharedCoreSeed(t *testing.T) (goSeedDir, time.Time) {
	t.Helper()
	sharedSeedDirs(t)
	return builtSharedCoreSeed(t)
}

// servedCoreSeed is sharedCoreSeed built as the sentinel binary builds it,
// with this test binary as its cache program (TestMain serves it); it
// skips the test under -short.
func servedCoreSeed(t *testing.T) (goSeedDir, time.Time) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the go command")
	}
	was := goCacheProgExe
	goCacheProgExe = func() (string, error) { return os.Executable() }
	t.Cleanup(func() { goCacheProgExe = was })
	return sharedCoreSeed(t)
}

// builtSharedCoreSeed is sharedCoreSeed in the dirs sharedSeedDirs gave.
func builtSharedCoreSeed(t *testing.T) (goSeedDir, time.Time) {
	t.Helper()
	root, ok := seedRoot()
	if !ok {
		t.Fatal("no seed root")
	}
	if sharedSeed.buildStarted.IsZero() {
		sharedSeed.buildStarted = time.Now()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute) // a hang bound
	defer cancel()
	s, err := goSeedTier(ctx, root, seedTiers[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	// Through the process's own dir, not this test's cache dir (whose
	// link to it goes with the test).
	sharedSeed.built = filepath.Join(sharedSeed.dir, "verify-go-seed", filepath.Base(s.dir))
	return s, sharedSeed.buildStarted
}

const sharedSeedPrefix = "sentinel-runner-seed-"

// sweepSharedSeeds removes the shared seeds that processes killed before
// their end (a test timeout's panic runs no TestMain cleanup) left: any
// not touched for two hours, longer than a test process lives.
func sweepSharedSeeds() {
	old, _ := filepath.Glob(filepath.Join(os.TempDir(), sharedSeedPrefix+"*"))
	for _, d := range old {
		if fi, err := os.Lstat(d); err == nil && fi.IsDir() && time.Since(fi.ModTime()) > 2*time.Hour {
			_ = os.RemoveAll(d)
		}
	}
}

// removeSharedSeed removes the shared seed at the end of the process.
func removeSharedSeed() {
	if sharedSeed.dir != "" {
		_ = os.RemoveAll(sharedSeed.dir)
	}
}

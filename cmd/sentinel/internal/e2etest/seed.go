package e2etest

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sentinelhq/sentinel/internal/filelock"
)

// Every end-to-end test process has a user state dir of its own, and so a
// record key of its own; the Go build cache seed a verification of a Go
// project needs (runner/verify_gocache.go) is named and signed by that
// key, so every process whose runs verify Go built its own (about 18 CPU-s,
// minutes at load), each left in the cache dir the process inherited,
// which was the developer's own ~/.cache. Instead, one test record key and
// one seed root per user on this machine serve every test process: the key
// is copied into each process's state dir (Main) and the seed root linked
// into a test's fresh cache dir (SharedSeedEnv), so the first run that
// needs the seed builds it and every later one, in any process, reuses it.
// A test that is about the seed (building, signing, refusing a forged one)
// gives its runs its own XDG_STATE_HOME and XDG_CACHE_HOME, and so its own
// key and seed.

// sharedTestRoot is the per-user directory the shared key and seed live in.
func sharedTestRoot() string {
	return filepath.Join(os.TempDir(), fmt.Sprintf("sentinel-test-seed-%d", os.Getuid()))
}

// sharedTestKey is the shared record key's file (64 hex digits), made on
// first ask; two processes racing to make it agree on one (a link, not a
// rename, as userstate.Key does).
func sharedTestKey() (string, error) {
	root := sharedTestRoot()
	if err := os.MkdirAll(root, 0o700); err != nil {
		return "", err
	}
	p := filepath.Join(root, "record.key")
	if b, err := os.ReadFile(p); err == nil && len(b) == 64 {
		return p, nil
	}
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(root, ".key-*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.WriteString(hex.EncodeToString(k)); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	if err := os.Link(tmp.Name(), p); err != nil && !errors.Is(err, os.ErrExist) {
		return "", err
	}
	return p, nil
}

// shareKey puts the shared record key into the user state dir under
// stateHome (as userstate.Dir lays it out).
func shareKey(stateHome string) error {
	src, err := sharedTestKey()
	if err != nil {
		return err
	}
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	dir := filepath.Join(stateHome, "sentinel")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "record.key"), b, 0o600)
}

// shareSeed links the shared seed root into the cache dir cacheHome, where
// a sentinel whose XDG_CACHE_HOME is cacheHome looks for its seeds.
func shareSeed(cacheHome string) error {
	shared := filepath.Join(sharedTestRoot(), "verify-go-seed")
	if err := os.MkdirAll(shared, 0o700); err != nil {
		return err
	}
	dir := filepath.Join(cacheHome, "sentinel")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return os.Symlink(shared, filepath.Join(dir, "verify-go-seed"))
}

// shareState gives the process a state dir, in its own dir, holding the
// shared key, unless the command line's environment chose one. The cache
// dir stays the one inherited: tests that give a run HOME=their own dir
// expect its caches (opencode's model catalog, the sandbox homes) there.
func shareState(dir string) error {
	if os.Getenv("XDG_STATE_HOME") != "" {
		return nil
	}
	state := filepath.Join(dir, "state")
	if err := shareKey(state); err != nil {
		return fmt.Errorf("share the test record key: %w", err)
	}
	return os.Setenv("XDG_STATE_HOME", state)
}

// SharedSeedEnv is XDG_STATE_HOME and XDG_CACHE_HOME for a test that needs
// fresh state dirs of its own (its approvals, its runs) but is not about
// the Go build cache seed: fresh dirs holding the shared record key and
// seed root, where the seed is built (once per machine, see builtSharedSeed),
// so a run of a Go project neither builds one nor starts one in the
// background (runner.WarmGoSeed) only to kill it when it ends.
func SharedSeedEnv(t *testing.T) []string {
	t.Helper()
	env := sharedSeedDirs(t)
	builtSharedSeed(t)
	return env
}

// SharedSeedIn links the shared seed root into cacheHome (a person's
// ~/.cache, for a test that gives its runs a home of its own and keeps the
// process's state dir, and so the shared key), with the seed built.
func SharedSeedIn(t *testing.T, cacheHome string) {
	t.Helper()
	if err := shareSeed(cacheHome); err != nil {
		t.Fatal(err)
	}
	builtSharedSeed(t)
}

// sharedSeedDirs are fresh state and cache dirs holding the shared key
// and seed root.
func sharedSeedDirs(t *testing.T) []string {
	t.Helper()
	state, cache := t.TempDir(), t.TempDir()
	if err := shareKey(state); err != nil {
		t.Fatal(err)
	}
	if err := shareSeed(cache); err != nil {
		t.Fatal(err)
	}
	return []string{"XDG_STATE_HOME=" + state, "XDG_CACHE_HOME=" + cache}
}

// builtSharedSeed makes sure the shared seed root holds a seed, built by
// the first test process on this machine that asks (under a lock; the
// others wait for it) through a real verification of a small Go project,
// the way a person's first run builds theirs. Without a go on PATH, or
// without Bin (a test of this package), it does nothing.
func builtSharedSeed(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil || Bin == "" {
		return
	}
	root := sharedTestRoot()
	ready := filepath.Join(root, "seed-ready")
	if _, err := os.Stat(ready); err == nil {
		return
	}
	lock, err := os.OpenFile(filepath.Join(root, "seed.lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := filelock.Lock(lock); err != nil {
		t.Fatal(err)
	}
	defer filelock.Unlock(lock)
	if _, err := os.Stat(ready); err == nil {
		return // another process built it while this one waited
	}
	_, dir := CalcProject(t)
	env := append(sharedSeedDirs(t), "XDG_CONFIG_HOME="+t.TempDir())
	res := Sentinel(t, dir, env, "run", "--plain", "--coder", "command", "--verify", "go test ./...", "build the shared test seed", "--", "sh", "-c", "echo '// seed' >> calc.go")
	if res.Code != 0 {
		t.Fatalf("build the shared test Go build cache seed (a verified run of a small Go module): exit %d\nstderr: %s\nstdout:\n%s", res.Code, res.Stderr, res.Stdout)
	}
	if seeds, _ := filepath.Glob(filepath.Join(root, "verify-go-seed", "[0-9a-f]*")); len(seeds) == 0 {
		t.Fatalf("a verified run of a small Go module left no Go build cache seed in %s:\n%s", filepath.Join(root, "verify-go-seed"), res.Stdout)
	}
	WriteFile(t, ready, "")
}

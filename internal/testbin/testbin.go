// Package testbin builds the real sentinel binary once for tests that need to
// run it (end-to-end tests, the sandbox's re-exec helper). Any package's
// tests may use it.
//
// It must not be imported by non-test code.
package testbin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

var (
	once     sync.Once
	built    string
	buildErr error

	hooksOnce     sync.Once
	hooksBuilt    string
	hooksBuildErr error

	dirsMu sync.Mutex
	dirs   []string // what build made, for Cleanup
)

// Cleanup removes the binaries this process built (about 100 MB each).
// Call it from TestMain after m.Run: a package whose tests built one and
// never removed it fills /tmp run after run.
func Cleanup() {
	dirsMu.Lock()
	defer dirsMu.Unlock()
	for _, d := range dirs {
		_ = os.RemoveAll(d)
	}
	dirs = nil
}

// Main runs m and exits with its code, removing the binaries built on the
// way (Cleanup).
func Main(m interface{ Run() int }) {
	code := m.Run()
	Cleanup()
	os.Exit(code)
}

// SentinelWithTestHooks is a sentinel binary built with -tags sentineltest:
// it honours test-only switches (such as SENTINEL_TEST_CRASH_AFTER_WRITES)
// that the shipped binary does not have. Built once, on first use.
func SentinelWithTestHooks() (string, error) {
	hooksOnce.Do(func() {
		hooksBuilt, hooksBuildErr = build("-tags", "sentineltest")
	})
	return hooksBuilt, hooksBuildErr
}

// Sentinel returns the path of a freshly built sentinel binary in a
// temporary directory, building it on first use. SENTINEL_TEST_BIN
// names a prebuilt binary instead (used when tests re-run themselves as
// another user who cannot build).
func Sentinel() (string, error) {
	once.Do(func() {
		if p := os.Getenv("SENTINEL_TEST_BIN"); p != "" {
			built = p
			return
		}
		built, buildErr = build()
	})
	return built, buildErr
}

// build builds ./cmd/sentinel with extra go build flags into a temp dir
// of this process's own.
func build(flags ...string) (string, error) {
	root, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	// A directory of this process's own: packages' tests run in parallel,
	// and two builds into one path would race. It is world-readable so
	// tests can re-run the binary as another user.
	dir, err := os.MkdirTemp("", "sentinel-testbin-")
	if err != nil {
		return "", err
	}
	dirsMu.Lock()
	dirs = append(dirs, dir)
	dirsMu.Unlock()
	if err := os.Chmod(dir, 0o755); err != nil {
		return "", err
	}
	out := filepath.Join(dir, "sentinel")
	args := append(append([]string{"build"}, flags...), "-o", out, "./cmd/sentinel")
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, b)
	}
	return out, nil
}

// ModuleRoot is the directory holding go.mod.
func ModuleRoot() (string, error) {
	b, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(b))
	if gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("not inside the sentinel module")
	}
	return filepath.Dir(gomod), nil
}

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
)

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
		root, err := ModuleRoot()
		if err != nil {
			buildErr = err
			return
		}
		// A directory of this process's own: packages' tests run in
		// parallel, and two builds into one path would race. It is
		// world-readable so tests can re-run the binary as another user.
		dir, err := os.MkdirTemp("", "sentinel-testbin-")
		if err != nil {
			buildErr = err
			return
		}
		if err := os.Chmod(dir, 0o755); err != nil {
			buildErr = err
			return
		}
		out := filepath.Join(dir, "sentinel")
		cmd := exec.Command("go", "build", "-o", out, "./cmd/sentinel")
		cmd.Dir = root
		if b, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build ./cmd/sentinel: %v\n%s", err, b)
			return
		}
		built = out
	})
	return built, buildErr
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

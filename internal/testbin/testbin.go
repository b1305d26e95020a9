// Package testbin builds the real sentinel binary (and sentinel-helper) for
// tests that need to run it (end-to-end tests, the sandbox's re-exec
// helper): once per content for every test process of the machine's user,
// in a shared, locked cache (shared.go). Any package's tests may use it.
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

	pairOnce     sync.Once
	pairBuilt    string
	pairBuildErr error
)

// RaceBinaryEnv, set to 1, builds the sentinel and sentinel-helper the
// tests run with -race (its own entry in the shared cache), so a run of the
// end-to-end packages also catches data races in what only the binary
// does. It is off by default, measured 2026-12-07 on the 2-core machine:
// e2e/inplace cost 47.7 CPU-s and 87 s with the race-built binary against
// 34.6 CPU-s and 38 s without (its 329 sentinel processes 18.1 CPU-s
// against 9.1), and the test processes already run every package the
// binary is made of under -race in their own tests. Without it, a fresh
// clone's `go test -race ./...` compiles the binary's packages once more
// without -race (79 CPU-s with a cold cache, once per machine and
// content; a -race build would mostly reuse the test builds' archives):
// less than what the race detector adds in every package that runs the
// binary (the end-to-end packages, runner, sandbox, approvals). Nor is
// most of that compile the binary's alone: the children built without
// -race (internal/norace: policy, internal/mcpserver, tui/vterm) and
// policy's init probe compile the same non-race archives, 378 of the 403
// packages of sentinel and sentinel-helper (`go list -deps`, 2026-12-07);
// what only the binary adds is the other 25 (cmd/sentinel, tui, runner's
// service and dialects among them), the plain mcpserver and the links.
const RaceBinaryEnv = "SENTINEL_TEST_RACE_BINARY"

// binaryFlags are the build flags of the binaries the tests run.
func binaryFlags(extra ...string) []string {
	if os.Getenv(RaceBinaryEnv) == "1" {
		extra = append(extra, "-race")
	}
	return extra
}

// Main runs m and exits with its code. The binaries live in a cache
// shared by every test process (see sharedBuild), pruned by age, so there
// is nothing of this process's own to remove afterwards.
func Main(m interface{ Run() int }) {
	os.Exit(m.Run())
}

// SentinelWithTestHooks is a sentinel binary built with -tags sentineltest:
// it honours test-only switches (such as SENTINEL_TEST_CRASH_AFTER_WRITES)
// that the shipped binary does not have. Built once, on first use, and
// alone: no test runs it with a helper, and the helper's link would be
// paid for nothing.
func SentinelWithTestHooks() (string, error) {
	hooksOnce.Do(func() {
		var dir string
		dir, hooksBuildErr = sharedBuild(false, binaryFlags("-tags", "sentineltest")...)
		hooksBuilt = filepath.Join(dir, "bare", "sentinel")
	})
	return hooksBuilt, hooksBuildErr
}

// Sentinel returns the path of a built sentinel binary alone in its
// directory (no sentinel-helper beside it), building it on first use.
// SENTINEL_TEST_BIN names a prebuilt binary instead (used when tests
// re-run themselves as another user who cannot build).
func Sentinel() (string, error) {
	once.Do(func() {
		if p := os.Getenv("SENTINEL_TEST_BIN"); p != "" {
			built = p
			return
		}
		var dir string
		dir, buildErr = sharedBuild(true, binaryFlags()...)
		built = filepath.Join(dir, "bare", "sentinel")
	})
	return built, buildErr
}

// SentinelWithHelper returns the path of a built sentinel binary with
// sentinel-helper beside it, as `go install ./cmd/...` puts them.
func SentinelWithHelper() (string, error) {
	pairOnce.Do(func() {
		var dir string
		dir, pairBuildErr = sharedBuild(true, binaryFlags()...)
		pairBuilt = filepath.Join(dir, "sentinel")
	})
	return pairBuilt, pairBuildErr
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

package e2etest

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/sentinelhq/sentinel/internal/helperbin"
	"github.com/sentinelhq/sentinel/internal/testbin"
)

// Bin is the sentinel binary under test and HelperBin the sentinel-helper
// beside it, as `go install ./cmd/...` puts them (set by Main).
var Bin, HelperBin string

// Main prepares the process for end-to-end tests, sets Bin and HelperBin
// (and *sentinelBin and *helperBin when they are not nil), runs m and exits
// with its code.
func Main(m *testing.M, sentinelBin, helperBin *string) {
	mainWith(m, sentinelBin, helperBin, ParallelPerCore)
}

// MainComputing is Main for a package whose tests compute rather than
// wait: its agent CLIs use a core each for most of a test (opencode's start
// alone is 10-15 CPU-s), so more of them at once only stretches every
// test's waits on a loaded machine. It keeps Go's one test per core.
func MainComputing(m *testing.M, sentinelBin, helperBin *string) {
	mainWith(m, sentinelBin, helperBin, 1)
}

func mainWith(m *testing.M, sentinelBin, helperBin *string, perCore int) {
	testsInParallel(perCore)
	// A directory of this process's own for the user state and runtime
	// dirs; the binaries come from testbin's shared build.
	dir, err := os.MkdirTemp("", "sentinel-test-env")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// One user state dir for every sentinel this process starts, whatever
	// HOME a test gives it, and never the real one, holding the record key
	// every test process shares (seed.go).
	if err := shareState(dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	if p := os.Getenv("SENTINEL_TEST_BIN"); p != "" {
		// A re-run as another user (TestHostileSuiteUnprivileged), who may
		// not be able to build: the binary the first run built.
		Bin = p
	} else {
		// Never the person's user service (a run would post its requests
		// to the real approval queue): one empty runtime dir for the
		// process; the queue's tests start their own service in their own.
		rt := filepath.Join(dir, "rt")
		_ = os.Mkdir(rt, 0o700)
		os.Setenv("XDG_RUNTIME_DIR", rt)
		// sentinel-helper beside sentinel: the runs under test start it
		// for hooks and sandboxed commands.
		if Bin, err = testbin.SentinelWithHelper(); err != nil {
			fmt.Fprintf(os.Stderr, "build sentinel: %v\n", err)
			os.RemoveAll(dir)
			os.Exit(1)
		}
	}
	HelperBin = filepath.Join(filepath.Dir(Bin), helperbin.Name)
	if sentinelBin != nil {
		*sentinelBin = Bin
	}
	if helperBin != nil {
		*helperBin = HelperBin
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// ParallelPerCore is how many parallel tests an end-to-end test process
// runs per core when `go test` is not given -parallel. Go's default, one per
// core, suits tests that compute; these mostly wait on the processes they
// start (an agent CLI's start and turns, a run's timers, a tmux screen), so
// one per core left a quiet 2-core machine mostly idle while a package's
// tests queued two at a time. Their waits are bounds on a hang, never speed
// checks, so more at once only shares the cores.
const ParallelPerCore = 4

// testsInParallel sets -test.parallel to perCore tests per core, unless
// the command line set it (`go test -parallel 2` still rules).
func testsInParallel(perCore int) {
	if !flag.Parsed() {
		flag.Parse()
	}
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", strconv.Itoa(perCore*runtime.GOMAXPROCS(0)))
	}
}

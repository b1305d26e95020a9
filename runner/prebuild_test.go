package runner

import (
	"flag"
	"os"
	"os/exec"
	"runtime"
	"testing"

	"github.com/sentinelhq/sentinel/internal/testbin"
)

// prebuildArg makes the test binary build the sentinel binary (testbin's
// shared cache) and exit: TestMain starts it as a child at once when the
// whole package runs.
const prebuildArg = "__sentinel_runner_prebuild"

// prebuildStarted is the child TestMain started, nil when it started none.
var prebuildStarted *exec.Cmd

// startPrebuild starts building the sentinel binary the overlay tests run
// in a child process of its own, when the whole package runs (issue 33:
// the suite in minutes). Without it the first overlay test waited for the
// whole build alone (it took 291 s at load 25 on a fresh tree; 43-127 s at
// load 30-45 with the binary already built) while the serial tests before
// it mostly waited on git. A child, not a goroutine: its
// environment is this process's at start, before any test's t.Setenv of
// PATH, HOME or GOCACHE; the test that needs the binary later takes
// testbin's lock and waits for this build instead of starting one.
func startPrebuild() {
	flag.Parse()
	if runtime.GOOS != "linux" || os.Getenv("SENTINEL_TEST_BIN") != "" || testing.Short() {
		return
	}
	if f := flag.Lookup("test.run"); f == nil || f.Value.String() != "" {
		return // a chosen test: build only if it asks
	}
	if f := flag.Lookup("test.list"); f != nil && f.Value.String() != "" {
		return
	}
	cmd := exec.Command(os.Args[0], prebuildArg)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		return // the tests build it themselves
	}
	prebuildStarted = cmd
	go func() { _ = cmd.Wait() }()
}

// prebuildMain is the child: build, say what failed, exit.
func prebuildMain() int {
	if _, err := testbin.Sentinel(); err != nil {
		os.Stderr.WriteString("prebuild of sentinel for the runner tests: " + err.Error() + "\n")
		return 1
	}
	return 0
}

// TestTheSentinelBuildStartsWithThePackage: a run of the whole package
// starts the build at once (startPrebuild).
func TestTheSentinelBuildStartsWithThePackage(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" || os.Getenv("SENTINEL_TEST_BIN") != "" || testing.Short() {
		t.Skip("no prebuild here")
	}
	if f := flag.Lookup("test.run"); f.Value.String() != "" {
		t.Skip("only a run of the whole package starts the prebuild")
	}
	if prebuildStarted == nil {
		t.Fatal("the whole package runs but TestMain started no build of the sentinel binary: the first overlay test waits for all of it")
	}
}

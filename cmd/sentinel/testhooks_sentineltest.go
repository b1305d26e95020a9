//go:build sentineltest

package main

import (
	"os"
	"strconv"

	"github.com/sentinelhq/sentinel/runner"
	"github.com/sentinelhq/sentinel/runner/service"
)

// Test builds only (go build -tags sentineltest): the crash-safety tests
// make a real sentinel process die in the middle of a landing, and a
// test's service scans only that test's agents. The shipped binary has no
// such switches: this file, the only one reading these variables, is not
// in it. (The hooks are set here, in the main package, so that the test
// build recompiles nothing but this package.)
func init() {
	afterWrites, _ := strconv.Atoi(os.Getenv("SENTINEL_TEST_CRASH_AFTER_WRITES"))
	runner.SetTestCrashPoints(os.Getenv("SENTINEL_TEST_CRASH_AT"), afterWrites)
	service.SetTestScope(os.Getenv("SENTINEL_TEST_SERVICE_SCOPE"))
}

//go:build sentineltest

package runner

import (
	"os"
	"strconv"
)

// Test builds only (go build -tags sentineltest): the crash-safety tests
// make a real sentinel process die in the middle of a working-tree apply.
// The shipped binary has no such switch.
func init() {
	crashAfterWrites, _ = strconv.Atoi(os.Getenv("SENTINEL_TEST_CRASH_AFTER_WRITES"))
	crashAt = os.Getenv("SENTINEL_TEST_CRASH_AT")
}

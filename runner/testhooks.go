package runner

// SetTestCrashPoints makes the process exit as if killed at the landing
// point named at (crashPoint), or after afterWrites file replacements of a
// working-tree apply (0: never). Only a test build calls it: cmd/sentinel
// built with -tags sentineltest reads them from its environment
// (cmd/sentinel/testhooks_sentineltest.go); the shipped binary has no
// such switch. It lives here, untagged, so that this package and those
// built on it compile the same in both builds and the test build costs
// one package's compile and a link.
func SetTestCrashPoints(at string, afterWrites int) {
	crashAt, crashAfterWrites = at, afterWrites
}

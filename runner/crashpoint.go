package runner

// crashAt, when set, names the point of a landing at which the process
// exits as if killed (crashPoint): the crash-safety tests use it to die
// between the steps of a landing. Only a binary built with -tags
// sentineltest reads it from the environment (SetTestCrashPoints).
var crashAt string

// crashPoint exits the process when crashAt names it.
func crashPoint(name string) {
	if crashAt != "" && crashAt == name {
		exit(137)
	}
}

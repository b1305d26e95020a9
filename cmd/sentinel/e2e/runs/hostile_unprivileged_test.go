package runs

import (
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// hostileTests are the tests here that also run as the unprivileged CI
// user: model gates that answer garbage, nothing or too late must hold the
// run the same way for both kinds of caller. (The other hostile-coder tests
// are in e2e/hostile and the in-place ones in e2e/inplace; each re-runs its
// own.)
var hostileTests = []string{
	"TestModelGatesThatCannotAnswerHoldTheRun",
}

// TestHostileSuiteUnprivileged re-runs hostileTests as the unprivileged CI
// user when the suite runs as root (as the sandbox's escape suite does).
func TestHostileSuiteUnprivileged(t *testing.T) {
	e2etest.RerunUnprivileged(t, sentinelBin, hostileTests)
}

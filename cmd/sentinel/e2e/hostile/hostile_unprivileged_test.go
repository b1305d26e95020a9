package hostile

import (
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// hostileTests are the hostile-coder tests that also run as the
// unprivileged CI user: a coder that plants Sentinel's state, forges broker
// traffic (checked by the peer's uid), links out of the project, or reads
// what the sandbox hides must fail the same way for both kinds of caller.
// (The in-place ones are in e2e/inplace, which re-runs its own.)
//
// Each is a full run or more, so a test whose outcome cannot depend on who
// runs sentinel runs once, as root: what a model gate answers
// (TestModelGatesThatCannotAnswerHoldTheRun), the size of a change
// (TestAChangeOverTheSizeLimitIsRefusedAndLeavesGitAlone) and what
// FINAL_REPORT.md lists (TestFinalReportFlagsEveryFileThatRunsCodeLater)
// are computed from the change and the answers alone.
var hostileTests = []string{
	"TestAHostileCoderRunsNothingAndLandsNoState",
	"TestPlantedRunRecordsAreNeverActedOn",
	"TestCrashSweepUsesOnlyItsOwnShadowGitDir",
	"TestWorktreeApplyNeverWritesThroughASymlink",
	"TestForgedReportsAndHostileTextNeverReachTheTerminalRaw",
	"TestPlantedProjectConfigNeedsTrust",
	"TestSandboxRunAgentCannotTouchTheRealStartupFiles",
	"TestSandboxRunUsesTheProjectConfig",
}

// TestHostileSuiteUnprivileged re-runs hostileTests as the unprivileged CI
// user when the suite runs as root (as the sandbox's escape suite does).
func TestHostileSuiteUnprivileged(t *testing.T) {
	t.Parallel()
	e2etest.RerunUnprivileged(t, e2etest.Bin, hostileTests)
}

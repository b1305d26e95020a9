package hostile

import (
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// hostileTests are the hostile-coder tests that also run as the
// unprivileged CI user: a coder that plants Sentinel's state, forges broker
// traffic, writes run-later files, links out of the project or sends
// garbage through the gates must fail the same way for both kinds of caller.
// (The in-place ones are in e2e/inplace, which re-runs its own.)
var hostileTests = []string{
	"TestAHostileCoderRunsNothingAndLandsNoState",
	"TestAChangeOverTheSizeLimitIsRefusedAndLeavesGitAlone",
	"TestPlantedRunRecordsAreNeverActedOn",
	"TestCrashSweepUsesOnlyItsOwnShadowGitDir",
	"TestWorktreeApplyNeverWritesThroughASymlink",
	"TestForgedReportsAndHostileTextNeverReachTheTerminalRaw",
	"TestPlantedProjectConfigNeedsTrust",
	"TestFinalReportFlagsEveryFileThatRunsCodeLater",
	"TestSandboxRunAgentCannotTouchTheRealStartupFiles",
	"TestSandboxRunUsesTheProjectConfig",
	"TestModelGatesThatCannotAnswerHoldTheRun",
}

// TestHostileSuiteUnprivileged re-runs hostileTests as the unprivileged CI
// user when the suite runs as root (as the sandbox's escape suite does).
func TestHostileSuiteUnprivileged(t *testing.T) {
	e2etest.RerunUnprivileged(t, sentinelBin, hostileTests)
}

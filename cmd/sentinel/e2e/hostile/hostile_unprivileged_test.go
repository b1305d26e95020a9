package hostile

import (
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// hostileTests are the hostile-coder tests that also run as the
// unprivileged CI user: a coder that plants Sentinel's state, forges broker
// traffic, writes run-later files, links out of the project or forges
// hostile text must fail the same way for both kinds of caller.
// (The in-place ones are in e2e/inplace, which re-runs its own.) Not
// TestModelGatesThatCannotAnswerHoldTheRun: what a model gate answers does
// not depend on who runs sentinel, and each of its cases is a full run.
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
}

// TestHostileSuiteUnprivileged re-runs hostileTests as the unprivileged CI
// user when the suite runs as root (as the sandbox's escape suite does).
func TestHostileSuiteUnprivileged(t *testing.T) {
	e2etest.RerunUnprivileged(t, sentinelBin, hostileTests)
}

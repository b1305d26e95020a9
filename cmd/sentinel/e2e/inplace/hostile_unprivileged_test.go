package inplace

import (
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// hostileTests are this package's hostile-coder tests that also run as the
// unprivileged CI user (the others are in e2e/runs): a coder that links
// out of the place or plants git objects must fail the same way for both
// kinds of caller.
var hostileTests = []string{
	"TestExecInPlaceNestedRepoWorktreeAndObjects",
	"TestExecInPlaceFolderOfRepositories",
	"TestExecInPlaceInsideALinkedWorktree",
	"TestExecGitConfigIncludesStayThePersons",
	"TestExecGitConfigProgramsStayThePersons",
	"TestExecHidesRunsStartedLater",
	"TestExecCannotLeaveASetuidFile",
}

// TestHostileSuiteUnprivileged re-runs hostileTests as the unprivileged CI
// user when the suite runs as root.
func TestHostileSuiteUnprivileged(t *testing.T) {
	t.Parallel()
	e2etest.RerunUnprivileged(t, e2etest.Bin, hostileTests)
}

package inplace

import (
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/runner"
)

// e2etest writes runner's GOCACHEPROG argument out rather than import
// runner for it (archdoc's TestEndToEndHelpersLinkNoRunner); the two stay
// the same string.
func TestE2ETestNamesTheGoCacheProgArgumentAsRunnerDoes(t *testing.T) {
	if e2etest.GoCacheProgArg != runner.GoCacheProgArg {
		t.Errorf("e2etest.GoCacheProgArg %q, runner.GoCacheProgArg %q", e2etest.GoCacheProgArg, runner.GoCacheProgArg)
	}
}

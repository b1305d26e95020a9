package runner

import (
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/supervisor"
)

func TestHandoffCarriesThePersonsStandingDecisions(t *testing.T) {
	t.Parallel()
	res := supervisor.ReviewResult{Verdict: "return", Reason: "no test", Missing: []string{"a test for Shout"}}
	h := renderHandoff("add Shout", []string{"No new dependencies."}, []string{"shout.go"}, nil, res, 0)
	for _, want := range []string{"## Objective\n\nadd Shout", "## Standing decisions from the person\n\n- No new dependencies.", "- `shout.go`", "- missing: a test for Shout"} {
		if !strings.Contains(h, want) {
			t.Errorf("HANDOFF.md lacks %q:\n%s", want, h)
		}
	}
	if h := renderHandoff("add Shout", nil, nil, nil, res, 0); strings.Contains(h, "Standing decisions") {
		t.Errorf("a handoff with no standing decisions has the section:\n%s", h)
	}
}

package runner

import (
	"fmt"
	"strings"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/supervisor"
)

// A model gate that cannot answer is a no. The judge denies on its own
// (supervisor.Decide); the gates around landing — the completion review and
// the adversarial tester — record their failure here, and a run with a
// failed gate never lands without a person (see LandingStage.review). Every failure
// is journaled as a "gate-failed" event and listed in FINAL_REPORT.md.

// Gate names as the journal and the final report give them.
const (
	gateReview    = "completion review"
	gateAdversary = "adversarial tester"
	gateRelay     = "relay"
	gateForced    = "verification before landing"
)

// failed journals that gate could not give its answer, and holds the
// run: what it would have checked was not checked, so nothing lands
// without a person.
func (r *gateStage) failed(lane journal.Lane, gate string, err error) {
	g := GateFailure{Gate: gate, Reason: clipLine(err.Error(), 300)}
	r.failures = append(r.failures, g)
	r.emit(lane, KindGateFailed, g.String(), g)
}

// held is why an unattended run must not land, or nil.
func (r *gateStage) held() error {
	if len(r.failures) == 0 {
		return nil
	}
	var parts []string
	for _, g := range r.failures {
		parts = append(parts, g.String())
	}
	return fmt.Errorf("not landed without a person because a gate failed — %s: review it with 'sentinel review %s'", strings.Join(parts, "; "), r.runID)
}

// gateRisks are the final report's lines for every gate that failed during
// the run: the journaled gate failures, and the supervisor judge's failed
// turns (each of which was a deny).
func gateRisks(evs []journal.Event) []string {
	var out []string
	seen := map[string]bool{}
	judgeFails, lastJudge := 0, ""
	for _, ev := range evs {
		if g, ok := AsGateFailure(ev); ok {
			if g.Gate == "" {
				continue
			}
			line := "- " + oneLine(g.Gate) + ": failed (" + oneLineLong(g.Reason) + ")"
			if g.Gate == gateForced {
				line = "- landed WITHOUT verification (--force): " + oneLineLong(g.Reason)
			}
			if !seen[line] {
				seen[line] = true
				out = append(out, line)
			}
			continue
		}
		if rec, ok := supervisor.AsTurn(ev); ok && rec.Role == supervisor.KindJudge && rec.Error != "" {
			judgeFails++
			lastJudge = rec.Error
		}
	}
	if judgeFails > 0 {
		out = append(out, fmt.Sprintf("- supervisor judge: failed %d time(s), each a deny (last: %s)", judgeFails, oneLineLong(lastJudge)))
	}
	return out
}

// oneLineLong is s on one line, at most 300 runes, for a report's list.
func oneLineLong(s string) string {
	s = textsafe.Line(strings.Join(strings.Fields(s), " "))
	if r := []rune(s); len(r) > 300 {
		s = string(r[:297]) + "…"
	}
	return s
}

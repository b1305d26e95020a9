package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/runner"
)

// Steps said only by progress (the patch, the clean copy, the seed, the
// landing) each show what they are on the spinner line: a later step
// takes it over, and a step's own closing line takes it down, so a
// spinner never goes on naming a step that ended (say, through review).
func TestEachStepSaysItselfOnTheSpinnerLine(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 120, 40)
	step := func(seq int64, what string, elapsed time.Duration) {
		h.send(eventsMsg{ev(seq, journal.System, runner.KindVerifyProgress, what, runner.CheckProgress{Command: what, ElapsedMS: elapsed.Milliseconds()})})
	}
	step(1, "working out the coder's change", 2*time.Second)
	if s := h.screen(); !strings.Contains(s, "working out the coder's change · 2s") {
		t.Fatalf("no spinner line for the patch:\n%s", s)
	}
	h.send(eventsMsg{ev(2, journal.System, runner.KindPatch, "patch: 3 file(s) changed", nil)})
	if s := h.screen(); strings.Contains(s, "working out the coder's change ·") {
		t.Fatalf("the patch's spinner stays after its line:\n%s", s)
	}
	step(3, "making a clean copy of the project for verification", 2*time.Second)
	step(4, "preparing the Go build cache for verification", 3*time.Second)
	s := h.screen()
	if !strings.Contains(s, "preparing the Go build cache for verification · 3s") || strings.Contains(s, "clean copy of the project for verification ·") {
		t.Fatalf("the seed's wait did not take over the spinner from the clean copy:\n%s", s)
	}
}

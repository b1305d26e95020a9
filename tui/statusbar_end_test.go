package tui

import (
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// At 60 columns the status bar keeps the run's end whole ("run no
// changes"): the coder and the clock go first (#37 point 10).
func TestStatusBarKeepsTheRunsEndAt60Columns(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 60, 15)
	h.send(eventsMsg(demoEvents()))
	h.send(eventsMsg{ev(20, journal.System, "run-end", "", map[string]string{"status": "landed", "state": "no changes"})})
	bar := strings.SplitN(h.screen(), "\n", 2)[0]
	contains(t, bar, "run no changes")
	contains(t, bar, "sandbox")
}

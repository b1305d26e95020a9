package main

import (
	"encoding/json"

	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/runner"
)

// runJSON is one run in sentinel runs --json: the run's record with the
// state every other view shows it in (sentinel runs' table, status, the
// console, the TUI), so a script reads the same words a person does.
type runJSON struct {
	*runner.Meta
	// State is runState: "running", "waiting for you", "reviewing",
	// "landed", "no changes", "awaiting-review", "rejected (recovery)"…
	State string `json:"state"`
	// Pending is how many of the run's requests wait for a person.
	Pending int `json:"pending"`
	// WaitsForYou is true when the person is what the run waits on: a
	// pending request, or its change awaiting review.
	WaitsForYou bool `json:"waits_for_you"`
	// Landed is the sentence every view ends a run with (runner.LandingLine).
	Landed string `json:"landed,omitempty"`
}

// runState is a run's state word as every view tells it: runner.StateOf,
// "waiting for you" while a request of it waits on a person (queue.Live).
func runState(m *runner.Meta, pending map[string]int) string {
	return queue.Live(runner.StateOf(m), pending[m.ID])
}

// runsJSON is sentinel runs --json for metas, pending as pendingOf.
func runsJSON(metas []*runner.Meta, pending map[string]int) ([]byte, error) {
	out := make([]runJSON, 0, len(metas))
	for _, m := range metas {
		s := runState(m, pending)
		r := runJSON{Meta: m, State: s, Pending: pending[m.ID],
			WaitsForYou: s == queue.StateWaiting || queue.WaitsForPerson(s)}
		if m.Landing != nil && m.Status != runner.StatusRunning {
			r.Landed = runner.LandingLine(*m.Landing)
		}
		out = append(out, r)
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(textsafe.JSON(b), '\n'), nil
}

package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/runner"
)

// runsJSONState is what a script reads of one run in sentinel runs --json.
type runsJSONState struct {
	ID          string `json:"id"`
	Status      string `json:"status"`
	State       string `json:"state"`
	Pending     int    `json:"pending"`
	WaitsForYou bool   `json:"waits_for_you"`
	Landed      string `json:"landed"`
}

// sentinel runs --json says each run's state in the words the table (and
// status, the console, the TUI) says it in — "waiting for you" while a
// request waits, "(recovery)" when its work was kept, "no changes" rather
// than the record's "landed" — and, once it ended, what landed where
// (#37: the raw record alone disagreed with every other view).
func TestRunsJSONCarriesTheStateEveryViewShows(t *testing.T) {
	now := time.Now()
	metas := []*runner.Meta{
		{ID: "r-wait", Status: runner.StatusRunning, Started: now},
		{ID: "r-rec", Status: runner.StatusInterrupted, Started: now, Recovery: "/x/.sentinel/recovery/r-rec"},
		{ID: "r-none", Status: runner.StatusLanded, Started: now, Landing: &runner.Landing{Mode: runner.ApplyBranch, Nothing: true}},
		{ID: "r-land", Status: runner.StatusLanded, Started: now,
			Landing: &runner.Landing{Mode: runner.ApplyBranch, Branch: "sentinel/r-land", Files: []string{"a.go"}}},
		{ID: "r-rev", Status: runner.StatusPending, Started: now, Recovery: "/x/.sentinel/recovery/r-rev"},
	}
	pending := map[string]int{"r-wait": 2}
	b, err := runsJSON(metas, pending)
	if err != nil {
		t.Fatal(err)
	}
	var got []runsJSONState
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("runs --json is not JSON: %v\n%s", err, b)
	}
	want := map[string]runsJSONState{
		"r-wait": {Status: "running", State: "waiting for you", Pending: 2, WaitsForYou: true},
		"r-rec":  {Status: "interrupted", State: "interrupted (recovery)"},
		"r-none": {Status: "landed", State: "no changes", Landed: "no changes: the coder changed no files"},
		"r-land": {Status: "landed", State: "landed", Landed: "landed on branch sentinel/r-land (1 file(s))"},
		"r-rev":  {Status: "awaiting-review", State: "awaiting-review (recovery)", WaitsForYou: true},
	}
	if len(got) != len(metas) {
		t.Fatalf("runs --json has %d runs, want %d:\n%s", len(got), len(metas), b)
	}
	table := runsTSV(metas, pending)
	for _, g := range got {
		w := want[g.ID]
		if g.Status != w.Status || g.State != w.State || g.Pending != w.Pending || g.WaitsForYou != w.WaitsForYou ||
			!strings.HasPrefix(g.Landed, w.Landed) || (w.Landed == "") != (g.Landed == "") {
			t.Errorf("run %s in runs --json: %+v, want %+v", g.ID, g, w)
		}
		// The table says the same word.
		if !strings.Contains(table, g.ID+"\t"+g.State) {
			t.Errorf("run %s: --json says %q, the table another:\n%s", g.ID, g.State, table)
		}
	}
}

// The real binary, after a real run: --json names the state the table does.
func TestRunsJSONAgreesWithTheTable(t *testing.T) {
	dir := e2etest.ScratchRepo(t)
	if res := e2etest.Sentinel(t, dir, nil, "run", "--plain", "--coder", "command", "change nothing", "--", "true"); res.Code != 0 {
		t.Fatalf("run: exit %d\n%s\n%s", res.Code, res.Stdout, res.Stderr)
	}
	res := e2etest.Sentinel(t, dir, nil, "runs", "--json")
	var got []runsJSONState
	if err := json.Unmarshal([]byte(res.Stdout), &got); err != nil || len(got) != 1 {
		t.Fatalf("runs --json: exit %d, %v\n%s\n%s", res.Code, err, res.Stdout, res.Stderr)
	}
	if got[0].State != "no changes" || got[0].Status != "landed" || !strings.HasPrefix(got[0].Landed, "no changes: ") {
		t.Errorf("a run that changed nothing reads %+v in runs --json, want state \"no changes\" and the landing sentence", got[0])
	}
	table := e2etest.Sentinel(t, dir, nil, "runs").Stdout
	if !strings.Contains(table, got[0].ID+"\t"+got[0].State) {
		t.Errorf("runs --json says %q, the table:\n%s", got[0].State, table)
	}
}

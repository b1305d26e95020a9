package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner"
)

// The terminal's last words of an exec run name every changed file that
// runs code later. When the coder filled the disk, the journal failed
// before its per-file lines were written, and the summary was the one
// thing the person saw: it listed `M .venv/bin/activate` unflagged.
func TestExecSummaryNamesWhatRunsLater(t *testing.T) {
	res := runner.Result{
		Status: runner.StatusFailed,
		Err:    errors.New("the run was stopped … its journal cannot be written"),
		InPlace: &runner.InPlaceChanged{
			Files:   []string{".venv/bin/activate", "notes.txt"},
			Changes: []string{"M .venv/bin/activate", "D notes.txt"},
			Flagged: []runner.Flag{{Path: ".venv/bin/activate", Reason: "a virtual environment's activate script"}},
		},
	}
	got := execSummary("20261207-000000-abcdef", res)
	if !strings.Contains(got, "runs code later") || !strings.Contains(got, ".venv/bin/activate: a virtual environment's activate script") {
		t.Fatalf("the summary does not flag what runs later:\n%s", got)
	}
	res.InPlace.Flagged = nil
	if got := execSummary("20261207-000000-abcdef", res); strings.Contains(got, "runs code later") {
		t.Fatalf("a summary with nothing flagged says something runs later:\n%s", got)
	}
}

// The git dir's changes no commit writes are in the terminal's last
// words too (ipatk13), not only in the journal.
func TestExecSummaryNamesTheGitDirsChanges(t *testing.T) {
	res := runner.Result{Status: runner.StatusDone, InPlace: &runner.InPlaceChanged{
		GitDir: []string{"in place: the coder changed 1 thing(s) in your git dir …:\nnew /p/.git/MERGE_MSG — your next `git commit` takes it as its message"},
	}}
	got := execSummary("20261207-000000-abcdef", res)
	if !strings.Contains(got, "/p/.git/MERGE_MSG — your next `git commit` takes it as its message") {
		t.Fatalf("the summary does not name the git dir's change:\n%s", got)
	}
}

package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner"
)

// TestEndNotesSayHowToReviewKeptWork: a run whose work is kept in
// recovery — stopped, or rejected (the review screen's double Ctrl-C ends
// as "rejected: the person stopped the run") — ends with the command that
// reviews it; a landed run and an error that already names it do not
// repeat it (#37.11).
func TestEndNotesSayHowToReviewKeptWork(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		res  runner.Result
		err  error
		want bool
	}{
		{runner.Result{Status: runner.StatusInterrupted, Recovery: "/r"}, nil, true},
		{runner.Result{Status: runner.StatusRejected, Recovery: "/r"}, errors.New("the change was rejected in review: the person stopped the run"), true},
		{runner.Result{Status: runner.StatusRejected, Recovery: "/r"}, errors.New("stopped: work kept — sentinel review r1"), false},
		{runner.Result{Status: runner.StatusLanded}, nil, false},
	} {
		var b strings.Builder
		endNotes(&b, "r1", dir, c.res, c.err)
		if got := strings.Contains(b.String(), "sentinel review r1"); got != c.want {
			t.Errorf("%s (err %v): says sentinel review = %v, want %v:\n%s", c.res.Status, c.err, got, c.want, b.String())
		}
	}
}

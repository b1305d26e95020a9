package queue

import (
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/servicewire"
)

// A run's end word (runner.State), with or without " (recovery)", is taken
// and kept as final after its process is gone; a word outside the
// vocabulary is refused (#37 point 10).
func TestEndWordsAreFinalStates(t *testing.T) {
	dead := servicewire.Peer{PID: 1 << 22} // above pid_max: no such process
	for _, w := range []string{"rejected (recovery)", "no changes", "awaiting-review (recovery)", "interrupted (recovery)", "done", "landed", "kept"} {
		q := New(nil)
		if err := q.Report(dead, Report{Run: "r1", Project: "/src/p", State: w, Started: time.Now()}); err != nil {
			t.Fatalf("%q refused: %v", w, err)
		}
		if st := q.Statuses(); len(st) != 1 || st[0].State != w {
			t.Errorf("%q reads %+v after its process went", w, st)
		}
	}
	for _, w := range []string{"hacked", "running (recovery)", "landed (recovery) x"} {
		if err := New(nil).Report(dead, Report{Run: "r1", Project: "/src/p", State: w}); err == nil {
			t.Errorf("%q was taken", w)
		}
	}
}

package queue

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/servicewire"
)

// deadPID is the id of a process that has ended.
func deadPID(t *testing.T) int {
	t.Helper()
	c := exec.Command("true")
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	return c.Process.Pid
}

// A run whose process went away without a final report is settled from its
// records once, when status is asked, and shows what they say; a run still
// alive, or one already final, is never settled.
func TestStatusSettlesAGoneRunFromItsRecords(t *testing.T) {
	q := New(nil)
	var asked []string
	q.SetSettler(func(ctx context.Context, project, run string) string {
		asked = append(asked, run)
		if run == "unknown" {
			return ""
		}
		return StateLanded
	})
	now := time.Now()
	dead := servicewire.Peer{PID: deadPID(t)}
	me := servicewire.Peer{PID: os.Getpid()}
	for _, r := range []struct {
		peer servicewire.Peer
		rep  Report
	}{
		{dead, Report{Run: "killed-landing", Project: "/src/p", State: StateRunning, Started: now}},
		{dead, Report{Run: "unknown", Project: "/src/p", State: StateReviewing, Started: now.Add(time.Second)}},
		{dead, Report{Run: "ended", Project: "/src/p", State: StateFailed, Started: now.Add(2 * time.Second)}},
		{me, Report{Run: "alive", Project: "/src/p", State: StateRunning, Started: now.Add(3 * time.Second)}},
	} {
		if err := q.Report(r.peer, r.rep); err != nil {
			t.Fatal(err)
		}
	}
	q.SettledStatuses(context.Background())
	got := map[string]string{}
	for _, st := range q.SettledStatuses(context.Background()) {
		got[st.Run] = st.State
	}
	want := map[string]string{"killed-landing": StateLanded, "unknown": StateGone, "ended": StateFailed, "alive": StateRunning}
	for run, state := range want {
		if got[run] != state {
			t.Errorf("%s: %q, want %q (all: %v)", run, got[run], state, got)
		}
	}
	if len(asked) != 2 {
		t.Errorf("settled %v, want killed-landing and unknown once each", asked)
	}
}

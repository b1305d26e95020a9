package runner

import (
	"testing"
	"time"
)

// sentinel show follows a run while it is live: its record says running
// and its process holds the lock; not once the process is gone or the run
// has ended.
func TestRunLiveIsTheRecordAndTheLock(t *testing.T) {
	t.Parallel()

	p := recordsProject(t)
	id, dir := newRunDir(t, p)
	if err := writeMeta(dir, &Meta{ID: id, Status: StatusRunning, Started: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	l, err := lockRun(dir) // its process, alive
	if err != nil {
		t.Fatal(err)
	}
	if !RunLive(p, id) {
		t.Fatal("a run at work (running, lock held) is not live")
	}
	if err := writeMeta(dir, &Meta{ID: id, Status: StatusLanded, Started: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	if RunLive(p, id) {
		t.Fatal("a run whose record says it ended is live")
	}
	if err := writeMeta(dir, &Meta{ID: id, Status: StatusRunning, Started: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	l.release() // the process died
	if RunLive(p, id) {
		t.Fatal("a run whose process is gone is live")
	}
	if RunLive(p, "20260101-000000-0000ff") {
		t.Fatal("a run with no record is live")
	}
}

package runner

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// deadRun writes the record of a run that says running, whose journal's
// last event is at last, and whose process is gone (no one holds its lock).
func deadRun(t *testing.T, p *Project, last time.Time) (string, string) {
	t.Helper()
	id, dir := newRunDir(t, p)
	if err := writeMeta(dir, &Meta{ID: id, Status: StatusRunning, Started: last.Add(-time.Minute)}); err != nil {
		t.Fatal(err)
	}
	line := `{"seq":1,"time":"` + last.Format(time.RFC3339Nano) + `","run":"` + id + `","lane":"system","kind":"run-start","text":"start"}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "events.jsonl"), []byte(line+`{"seq":2,"ti`), 0o600); err != nil { // and a torn line
		t.Fatal(err)
	}
	return id, dir
}

// A dead run's end is its last journaled event, however often the journal
// is reopened after (a sweep on a full disk reopens it on every call and
// cannot rewrite the record): its duration does not tick.
func TestADeadRunEndsAtItsLastEvent(t *testing.T) {
	t.Parallel()

	p := recordsProject(t)
	last := time.Now().Add(-time.Hour).UTC().Truncate(time.Millisecond)
	_, dir := deadRun(t, p, last)
	j, err := journal.Open(filepath.Join(dir, "events.jsonl"), "x") // what a failed sweep does
	if err != nil {
		t.Fatal(err)
	}
	j.Close()
	for range 2 {
		metas, _, _ := ScanRuns(p)
		if len(metas) != 1 {
			t.Fatalf("%d runs found, want the dead one", len(metas))
		}
		if metas[0].Status != StatusInterrupted || !metas[0].Ended.Equal(last) {
			t.Fatalf("a dead run is shown %s, ended %v; want interrupted, ended %v", metas[0].Status, metas[0].Ended, last)
		}
	}
}

// The sweep that settles a dead run records the same end, not its own time.
func TestTheSweepRecordsADeadRunsLastEventAsItsEnd(t *testing.T) {
	t.Parallel()

	p := recordsProject(t)
	last := time.Now().Add(-time.Hour).UTC().Truncate(time.Millisecond)
	id, _ := deadRun(t, p, last)
	SweepStale(context.Background(), p)
	m, err := ReadMeta(p, id)
	if err != nil || m.Status != StatusInterrupted || !m.Ended.Equal(last) {
		t.Fatalf("after the sweep: %+v %v; want interrupted, ended %v", m, err, last)
	}
}

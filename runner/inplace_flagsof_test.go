package runner

import (
	"context"
	"os"
	"testing"
	"time"
)

// flagsOfAChange takes an in-place checkpoint of root, runs change (the
// coder's work), ends the run and returns the end report's flagged paths
// with their reasons: the set-up the report-flag tests share.
func flagsOfAChange(t *testing.T, root string, change func()) (flagged map[string]string, ch InPlaceChange) {
	t.Helper()
	p := &Project{Root: root}
	id := NewRunID(time.Now())
	if err := os.MkdirAll(p.RunDir(id), 0o700); err != nil {
		t.Fatal(err)
	}
	c := takeInPlaceCheckpoint(context.Background(), p, id, "exec: test", checkpointLimitsForTest, noEmit)
	if c == nil {
		t.Fatal("no checkpoint")
	}
	change()
	changes, after, err := c.end(nil, noEmit)
	if err != nil {
		t.Fatal(err)
	}
	ch = c.report(InPlaceChange{}, changes, after)
	flagged = map[string]string{}
	for _, f := range ch.Flagged {
		flagged[f.Path] = f.Reason
	}
	return flagged, ch
}

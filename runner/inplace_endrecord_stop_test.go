package runner

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// A stop asked for while the end record runs ends it (stop means stop:
// a SIGTERM did not end a 47-minute record of a deep tree, 31-ipatk16);
// a stop asked for before it began (the Ctrl-C that stopped the coder)
// does not, so what the coder changed is still told.
func TestAStopDuringTheEndRecordEndsIt(t *testing.T) {
	t.Parallel()
	s := newStopSignal()
	s.raise() // the stop that ended the coder
	again := s.again()
	select {
	case <-again:
		t.Fatal("a stop raised before the end record began ends it")
	default:
	}
	s.raise() // a second signal, during the record
	select {
	case <-again:
	default:
		t.Fatal("a stop raised during the end record does not reach it")
	}

	root, _ := filepath.EvalSymlinks(t.TempDir())
	gitInit(t, root)
	p := &Project{Root: root, GitDir: filepath.Join(root, ".git")}
	c := takeInPlaceCheckpoint(context.Background(), p, NewRunID(time.Now()), "exec: test", checkpointLimitsForTest, noEmit)
	if c == nil {
		t.Fatal("no checkpoint")
	}
	if _, _, err := c.end(again, noEmit); !errors.Is(err, context.Canceled) {
		t.Fatalf("an end record whose stop was raised returned %v, want context.Canceled", err)
	}
}

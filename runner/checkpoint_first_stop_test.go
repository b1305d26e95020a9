package runner

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/poll"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// A stop that comes while the first record of the place is being taken
// (before the coder starts) ends it: the start is refused with
// ErrStoppedBeforeCoder, and no record of the run is saved for undo to
// trust (31: stop means stop; the end record already honoured its stop).
// The place is large enough that the record is in progress when the stop
// comes: the test waits for its first stored blob, then stops it.
func TestAStopDuringTheFirstRecordEndsIt(t *testing.T) {
	t.Parallel()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	for d := 0; d < 100; d++ {
		dir := filepath.Join(root, fmt.Sprintf("d%03d", d))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for f := 0; f < 30; f++ {
			body := fmt.Appendf(nil, "file %d/%d\n%0512d\n", d, f, d*100+f)
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d.txt", f)), body, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	s, err := checkpoint.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	go func() { // poll: the record is under way once a blob is stored
		defer close(stop)
		blobs := filepath.Join(s.Dir, "blobs")
		poll.Until(time.Minute, func() bool {
			ents, _ := os.ReadDir(blobs)
			return len(ents) > 0
		})
	}()
	p := &Project{Root: root}
	id := NewRunID(time.Now())
	ctx, done := stoppedBy(stop)
	defer done()
	c := takeInPlaceCheckpointTelling(ctx, p, id, "exec: test", checkpoint.Limits{}, time.Hour, noEmit)
	<-stop
	if c == nil {
		t.Fatal("a first record whose stop came while it ran gave no checkpoint, want the start refused with ErrStoppedBeforeCoder")
	}
	if err := c.refused(); !errors.Is(err, ErrStoppedBeforeCoder) {
		t.Fatalf("a first record whose stop came while it ran: refused %v, want ErrStoppedBeforeCoder (the record finished and the coder would start)", err)
	}
	if rec, err := s.Record(id); err == nil && rec != nil {
		t.Fatalf("a stopped first record left a record undo would trust: %+v", rec)
	}
	if recs, _ := s.Records(); len(recs) != 0 {
		t.Fatalf("a stopped first record left %d records", len(recs))
	}
}

package journal

import (
	"os"
	"path/filepath"
	"testing"
)

// SeekAfter finds where the events after one start, by bisection on seq,
// and says so when no line has that seq.
func TestSeekAfterFindsTheLineAfterASeq(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	j, err := Open(path, "r")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20_000; i++ {
		if _, err := j.Append(Tool, "result", "a line long enough to make the file span many bisection steps", nil); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()
	for _, seq := range []int64{1, 2, 777, 12_345, 19_999} {
		off, ok, err := SeekAfter(path, seq)
		if err != nil || !ok {
			t.Fatalf("seq %d: ok %v, err %v", seq, ok, err)
		}
		var next int64
		errStop := os.ErrClosed
		if err := ScanFileFrom(path, off, func(ev Event) error { next = ev.Seq; return errStop }); err != errStop {
			t.Fatalf("seq %d: scan from %d: %v", seq, off, err)
		}
		if next != seq+1 {
			t.Fatalf("after seq %d the scan starts at seq %d", seq, next)
		}
	}
	off, ok, err := SeekAfter(path, 20_000)
	if err != nil || !ok {
		t.Fatalf("the last seq: ok %v, err %v", ok, err)
	}
	if st, _ := os.Stat(path); off != st.Size() {
		t.Fatalf("after the last line the offset is %d, want the file's size %d", off, st.Size())
	}
	for _, seq := range []int64{0, 20_001} {
		if _, ok, err := SeekAfter(path, seq); ok || err != nil {
			t.Fatalf("seq %d, which no line has: ok %v, err %v", seq, ok, err)
		}
	}
}

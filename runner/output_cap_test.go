package runner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/sandbox"
)

// The cap keeps the head and the tail whole and accounts for every byte
// in between.
func TestOutputCapKeepsHeadAndTail(t *testing.T) {
	t.Parallel()
	c := newOutputCap(1000)
	var in, kept bytes.Buffer
	for i := 0; i < 5000; i++ {
		b := []byte(strings.Repeat("y", i%7) + "\n")
		in.Write(b)
		if ok, _ := c.take(b); ok {
			kept.Write(b)
		}
	}
	dropped, _, tail, was := c.end()
	if !was || int64(kept.Len()) > c.max-c.tail || int64(len(tail)) != c.tail {
		t.Fatalf("kept %d, tail %d (cap %d, tail %d)", kept.Len(), len(tail), c.max, c.tail)
	}
	if int64(kept.Len())+dropped+int64(len(tail)) != int64(in.Len()) {
		t.Fatalf("%d kept + %d dropped + %d tail != %d", kept.Len(), dropped, len(tail), in.Len())
	}
	if !bytes.HasSuffix(in.Bytes(), tail) || !bytes.HasPrefix(in.Bytes(), kept.Bytes()) {
		t.Fatal("the head or the tail is not the output's own")
	}
}

// A coder that prints far more than [journal] max_output leaves a journal
// of about that size, with a line where the cut is and the output's end.
func TestJournalBoundsTheCodersOutput(t *testing.T) {
	t.Parallel()

	p := stopRepo(t)
	r, err := Start(context.Background(), Options{Project: p, Task: "print a lot",
		Coder:   CoderOptions{Name: "command", Command: []string{"sh", "-c", "yes | head -c 4000000; echo THE-END"}, MaxOutput: 64 << 10},
		Sandbox: SandboxOptions{Mode: sandbox.ModeOff},
		Landing: LandingOptions{Apply: ApplyNone}})
	if err != nil {
		t.Fatal(err)
	}
	waitResult(t, r, "a chatty coder")
	path := filepath.Join(r.Dir(), "events.jsonl")
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() > 1<<20 {
		t.Fatalf("the journal holds %d bytes for a 64 KiB cap", st.Size())
	}
	evs, err := journal.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cuts int
	var last string
	for _, ev := range evs {
		if ev.Kind == KindOutputCut {
			cuts++
		}
		if ev.Is(journal.Coder, coderstream.Output) {
			last = ev.Text
		}
	}
	if cuts != 2 || !strings.Contains(last, "THE-END") {
		t.Fatalf("%d cut lines (want where it starts and what it dropped); last output %q", cuts, last)
	}
}

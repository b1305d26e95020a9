package runner

import (
	"fmt"
	"sync"

	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// DefaultMaxOutput is how much of the coder's output a run's journal keeps
// when [journal] max_output does not say.
const DefaultMaxOutput = 64 << 20

// KindOutputCut marks where the journal stopped keeping the coder's
// output, and, at the coder's end, how much it dropped there.
const KindOutputCut journal.Kind = "output-cut"

// outputCap bounds the coder's output in the journal, per run: the first
// max-tail bytes are kept as they come; past that a line says the output
// is being cut, everything goes to a tail buffer, and when the coder ends
// one line says how much was dropped and the tail (the last `tail` bytes,
// where a failure says why) follows in full.
type outputCap struct {
	max, tail int64

	mu      sync.Mutex
	kept    int64  // bytes journaled before the cut
	cut     bool   // past the cut: output goes to buf
	buf     []byte // the tail, up to 2*tail bytes before it is trimmed
	dropped int64  // bytes neither journaled nor in buf
	lines   int64  // newlines among the dropped bytes
}

func newOutputCap(max int64) *outputCap {
	if max <= 0 {
		max = DefaultMaxOutput
	}
	tail := max / 16
	if tail > 1<<20 {
		tail = 1 << 20
	}
	return &outputCap{max: max, tail: tail}
}

// take says whether b goes to the journal now; when it does not, it is
// kept for the tail. cutNow is true once: the moment the cut begins.
func (c *outputCap) take(b []byte) (journalIt, cutNow bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.cut && c.kept+int64(len(b)) <= c.max-c.tail {
		c.kept += int64(len(b))
		return true, false
	}
	cutNow = !c.cut
	c.cut = true
	c.buf = append(c.buf, b...)
	if over := int64(len(c.buf)) - 2*c.tail; over > 0 {
		drop := int64(len(c.buf)) - c.tail
		for _, ch := range c.buf[:drop] {
			if ch == '\n' {
				c.lines++
			}
		}
		c.dropped += drop
		c.buf = append(c.buf[:0], c.buf[drop:]...)
	}
	return false, cutNow
}

// end returns, after a cut, how much was dropped and the tail, and starts
// a fresh tail (a restarted coder's output goes on under the same cap).
func (c *outputCap) end() (dropped, lines int64, tail []byte, was bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.cut {
		return 0, 0, nil, false
	}
	buf := c.buf
	if over := int64(len(buf)) - c.tail; over > 0 {
		for _, ch := range buf[:over] {
			if ch == '\n' {
				c.lines++
			}
		}
		c.dropped += over
		buf = buf[over:]
	}
	dropped, lines, tail = c.dropped, c.lines, append([]byte(nil), buf...)
	c.buf, c.dropped, c.lines = nil, 0, 0
	return dropped, lines, tail, true
}

// emitOutput journals a piece of the coder's output under the run's cap.
func (r *coderStage) emitOutput(b []byte) {
	ok, cutNow := r.outCap.take(b)
	if cutNow {
		r.emit(journal.System, KindOutputCut, fmt.Sprintf("the coder's output passed [journal] max_output (%s): from here it is dropped, and its last %s is kept when the coder ends", sizeText(r.outCap.max), sizeText(r.outCap.tail)),
			OutputCutNote{MaxOutput: r.outCap.max, Tail: r.outCap.tail})
	}
	if ok {
		r.emit(journal.Coder, coderstream.Output, string(b), nil)
	}
}

// endOutput journals what the cap dropped and the tail, after the coder
// ended (and before its exit is recorded).
func (r *coderStage) endOutput() {
	dropped, lines, tail, was := r.outCap.end()
	if !was {
		return
	}
	r.emit(journal.System, KindOutputCut, fmt.Sprintf("[journal] max_output: %s (%d lines) of the coder's output dropped here; its last %s follows", sizeText(dropped), lines, sizeText(int64(len(tail)))),
		OutputDroppedNote{DroppedBytes: dropped, DroppedLines: lines, TailBytes: len(tail)})
	for len(tail) > 0 {
		n := min(len(tail), 64<<10)
		r.emit(journal.Coder, coderstream.Output, string(tail[:n]), nil)
		tail = tail[n:]
	}
}

// sizeText is n bytes in the largest whole unit.
func sizeText(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

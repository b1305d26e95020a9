// Package plain is Sentinel's line mode (--plain): one line per event,
// tagged by lane, for logs and pipes, and approval prompts answered at a
// terminal prompt; a coder that goes quiet is told (quiet.go). It is a
// view: it reads events and answers prompts and must not reach into the
// runner.
package plain

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/runner"
)

// Tag is the lane label a line starts with; approval denials get [DENIED].
func Tag(ev journal.Event) string {
	if d, ok := approvals.AsDecision(ev); ok && !d.Allowed() {
		return "[DENIED]"
	}
	return "[" + textsafe.Line(strings.ToUpper(string(ev.Lane))) + "]"
}

// CoderSays leads the text of a report the coder sent over the broker's
// socket: it is the coder's word, not Sentinel's.
const CoderSays = "coder reports: "

// FailedMark leads a finished tool call that failed (a command that
// exited non-zero, a tool the agent reported as failed).
const FailedMark = "✗ failed: "

// Paint colours a line's tag ("[CODER]"); the run screen's lanes table
// and theme make it (tui.PlainTags), so a tag has one colour everywhere.
type Paint func(tag string) string

// Printer writes events as tagged lines, every line through textsafe: coder
// output arrives in raw pty chunks, cut into lines as a terminal would leave
// them (textsafe.TermLine); any other text has its hidden characters spelled
// out (textsafe.Line).
type Printer struct {
	mu      sync.Mutex
	w       *bufio.Writer
	paint   Paint
	partial strings.Builder // coder output after the last newline
}

// NewPrinter writes to w; paint, when not nil, colours the tags.
func NewPrinter(w io.Writer, paint Paint) *Printer {
	return &Printer{w: bufio.NewWriter(w), paint: paint}
}

// Print writes one event.
func (p *Printer) Print(ev journal.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	defer p.w.Flush()
	if coderstream.Quiet(ev) {
		return // an agent's lifecycle chatter: the journal keeps it
	}
	if ev.Is(journal.Coder, coderstream.Output) {
		p.coderOutput(ev.Text)
		return
	}
	text := ev.Text
	if ev.Is(journal.Coder, runner.KindSteer) {
		text = "↪ steering sent: " + text
	}
	if _, failed := approvals.ToolOutcome(ev); failed {
		text = FailedMark + text
	}
	if approvals.CoderReported(ev) {
		text = CoderSays + text
	}
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		p.line(Tag(ev), textsafe.Line(l))
	}
	for _, l := range FailedCheckTail(ev) {
		p.line(Tag(ev), TailMark+l)
	}
}

// TailMark leads each line of a failed check's output: the check runs the
// coder's code, so these lines are its words, not Sentinel's.
const TailMark = "  │ "

// FailedCheckTail is the end of a failed check's output, line by line with
// hidden characters spelled out, when ev is a check that failed; else nil.
func FailedCheckTail(ev journal.Event) []string {
	c, ok := runner.AsCheckResult(ev)
	if !ok || c.Passed() {
		return nil
	}
	tail := strings.TrimSpace(c.Tail)
	if c.Error != "" {
		tail = strings.TrimSpace(c.Error + "\n" + tail)
	}
	if tail == "" {
		return []string{"(no output)"}
	}
	lines := strings.Split(tail, "\n")
	for i, l := range lines {
		lines[i] = textsafe.TermLine(l)
	}
	return lines
}

// MaxPartial bounds unfinished coder output: output with no newline for
// this long is printed as a line, so memory stays bounded.
const MaxPartial = 16 << 10

func (p *Printer) coderOutput(chunk string) {
	p.partial.WriteString(chunk)
	s := p.partial.String()
	i := strings.LastIndexByte(s, '\n')
	if i < 0 {
		if len(s) > MaxPartial {
			p.partial.Reset()
			p.line("[CODER]", textsafe.TermLine(s))
		}
		return
	}
	p.partial.Reset()
	p.partial.WriteString(s[i+1:])
	for _, l := range strings.Split(s[:i], "\n") {
		p.line("[CODER]", textsafe.TermLine(l))
	}
}

// Flush writes any unterminated coder output.
func (p *Printer) Flush() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.partial.Len() > 0 {
		p.line("[CODER]", textsafe.TermLine(p.partial.String()))
		p.partial.Reset()
	}
	p.w.Flush()
}

func (p *Printer) line(tag, text string) {
	if p.paint != nil {
		tag = p.paint(tag)
	}
	fmt.Fprintf(p.w, "%s %s\n", tag, text)
}

// Follow prints every event from events until the channel closes.
func (p *Printer) Follow(events <-chan journal.Event) {
	for ev := range events {
		p.Print(ev)
	}
	p.Flush()
}

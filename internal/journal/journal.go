// Package journal owns a run's append-only event log: the Event type, the
// lanes, the Kind type, writing events so that a kill -9 at any moment leaves
// only complete lines (and a failed write, e.g. a full disk, leaves none
// torn: the file is cut back to its last complete line and the journal
// fails), publishing them to live subscribers, and reading a journal back.
//
// It must not interpret events: views (TUI, plain output, reports) do that.
// Each package that emits events owns its kinds as typed constants and its
// payload types with decoders (approvals.AsDecision, runner.AsRunEnd, …),
// built on As; readers switch on those constants and decode with those
// decoders, never by matching an event's display text.
//
// # Stability of the event format
//
// A journal (events.jsonl) is read by other processes and later versions
// (`sentinel show`, `sentinel runs`, reports, a console following a run), so
// what is on disk is a format, and these rules hold for it:
//
//   - One event is one JSON object on one line:
//     {seq, time, run, lane, kind, text, data}. Seq counts from 1 without
//     gaps within a file; time is UTC; a last line without a newline is an
//     interrupted write and is ignored.
//   - Lanes are the six of Lanes; a new lane is a format change.
//   - A kind is a stable lower-case string on disk: once written, a kind
//     keeps its spelling and meaning. The Go constant's name may change; its
//     value may not. A kind that is no longer emitted is still read.
//   - A kind means something only together with its lane (reports from the
//     coder may use the tool and coder lanes only; see approvals).
//   - Payload (data) fields are only ever added: an existing field keeps its
//     name, JSON type and meaning, and a reader must ignore fields it does
//     not know. A decoder that meets a payload it cannot decode says so
//     (false), and the reader treats the event as display-only.
//   - A reader must ignore (or show as text only) kinds it does not know;
//     text is for display only and carries no meaning a reader may decide
//     on.
//   - What the coder sent (reports, its stream) is marked as the coder's
//     word (approvals.CoderReported) and is hostile input to every reader.
package journal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Lane is one of the fixed streams an event belongs to.
type Lane string

// The lanes, in the order views show them.
const (
	System     Lane = "system"
	Coder      Lane = "coder"
	Tool       Lane = "tool"
	Approval   Lane = "approval"
	Supervisor Lane = "supervisor"
	Adversary  Lane = "adversary"
)

// Lanes lists every lane.
var Lanes = []Lane{System, Coder, Tool, Approval, Supervisor, Adversary}

// Valid reports whether l is a known lane.
func (l Lane) Valid() bool {
	for _, k := range Lanes {
		if k == l {
			return true
		}
	}
	return false
}

// Event is one observable thing that happened in a run.
type Event struct {
	Seq  int64           `json:"seq"`
	Time time.Time       `json:"time"`
	Run  string          `json:"run"`
	Lane Lane            `json:"lane"`
	Kind Kind            `json:"kind"`
	Text string          `json:"text"`
	Data json.RawMessage `json:"data,omitempty"`
}

// Kind names what an event is, within its lane. Kinds are stable strings on
// disk (see the package doc); each emitting package declares its own as
// typed constants.
type Kind string

// Is reports whether the event is of kind k on lane.
func (e Event) Is(lane Lane, k Kind) bool { return e.Lane == lane && e.Kind == k }

// As decodes ev's data as a T when ev is on lane and of one of kinds; ok is
// false for another event, an event without data, or data that does not
// decode. It is what the emitting packages' typed decoders are built on.
func As[T any](ev Event, lane Lane, kinds ...Kind) (v T, ok bool) {
	if ev.Lane != lane || len(ev.Data) == 0 {
		return v, false
	}
	for _, k := range kinds {
		if ev.Kind == k {
			return v, ev.Decode(&v) == nil
		}
	}
	return v, false
}

// Decode unmarshals the event's data into v.
func (e Event) Decode(v any) error {
	if len(e.Data) == 0 {
		return nil
	}
	return json.Unmarshal(e.Data, v)
}

// Journal appends events to a file and fans them out to subscribers.
// It is safe for concurrent use.
type Journal struct {
	mu   sync.Mutex
	f    file
	path string
	size int64 // bytes of complete lines in the file: where a failed write is cut back to
	// err is set by the first write that fails; from then on every Append
	// fails with it and failed is closed.
	err    error
	failed chan struct{}
	run    string
	seq    int64
	subs   map[int]*subscriber
	nextID int
	closed bool
	now    func() time.Time
}

// file is what the journal needs of its file (*os.File; tests inject one
// that fails).
type file interface {
	io.Writer
	Truncate(size int64) error
	Sync() error
	Close() error
}

// Open creates (or appends to) the journal file at path for run.
// Sequence numbers continue after the last complete line of an existing file;
// a torn last line (a crash mid-write) is cut off first, so the next event
// starts on a line of its own.
func Open(path, run string) (*Journal, error) {
	// No-follow: a link planted where a journal should be is never written through.
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|os.O_APPEND|noFollow, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open journal %s: %w", path, err)
	}
	size, err := completeSize(f)
	if err == nil {
		err = f.Truncate(size)
	}
	var seq int64
	if err == nil {
		// The last complete line's seq, read from the end: reopening a
		// journal of millions of lines reads one of them.
		seq, err = lastSeq(f, size)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("open journal %s: %w", path, err)
	}
	return newJournal(f, path, run, seq, size), nil
}

func newJournal(f file, path, run string, seq, size int64) *Journal {
	return &Journal{f: f, path: path, size: size, failed: make(chan struct{}), run: run, seq: seq,
		subs: map[int]*subscriber{}, now: time.Now}
}

// completeSize is the length of f up to and including its last newline.
func completeSize(f *os.File) (int64, error) {
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	end := fi.Size()
	buf := make([]byte, 4096)
	for end > 0 {
		n := int64(len(buf))
		if n > end {
			n = end
		}
		if _, err := f.ReadAt(buf[:n], end-n); err != nil {
			return 0, err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			return end - n + int64(i) + 1, nil
		}
		end -= n
	}
	return 0, nil
}

// Path is the journal's file.
func (j *Journal) Path() string { return j.path }

// Failed is closed when a write to the journal has failed (e.g. the disk is
// full); Err then says why. A run must not go on unrecorded.
func (j *Journal) Failed() <-chan struct{} { return j.failed }

// Err is the write failure that stopped the journal, or nil.
func (j *Journal) Err() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.err
}

// Run returns the run id the journal belongs to.
func (j *Journal) Run() string { return j.run }

// Append records an event. data may be nil, a json.RawMessage, or any value
// that marshals to JSON. The line reaches the file in a single write(2), so a
// process killed at any moment leaves whole lines only.
func (j *Journal) Append(lane Lane, kind Kind, text string, data any) (Event, error) {
	var raw json.RawMessage
	switch d := data.(type) {
	case nil:
	case json.RawMessage:
		raw = d
	default:
		b, err := json.Marshal(d)
		if err != nil {
			return Event{}, fmt.Errorf("journal: encode %s/%s data: %w", lane, kind, err)
		}
		raw = b
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err != nil {
		return Event{}, j.err
	}
	if j.closed {
		return Event{}, errors.New("journal: closed")
	}
	j.seq++
	ev := Event{Seq: j.seq, Time: j.now().UTC(), Run: j.run, Lane: lane, Kind: kind, Text: text, Data: raw}
	line, err := json.Marshal(ev)
	if err != nil {
		j.seq--
		return Event{}, fmt.Errorf("journal: encode event: %w", err)
	}
	line = append(line, '\n')
	n, err := j.f.Write(line)
	if err == nil && n < len(line) {
		err = io.ErrShortWrite
	}
	if err != nil {
		j.seq--
		j.fail(err)
		return Event{}, j.err
	}
	off := j.size
	j.size += int64(n)
	j.publish(ev, off)
	return ev, nil
}

// publish fans ev out to the subscribers; off is where its line starts in
// the file (-1: it is not in the file). The caller holds the lock.
func (j *Journal) publish(ev Event, off int64) {
	for _, s := range j.subs {
		if !s.wants(&ev) {
			continue
		}
		if s.lossless {
			s.enqueue(ev, off)
			continue
		}
		select {
		case s.ch <- ev:
		default: // a slow view loses streaming events, never the journal
		}
	}
}

// fail puts the journal in its failed state after a write error: a line
// written in part (a short write on a full disk) is cut off, so the file
// still ends on a complete line. The caller holds the lock.
func (j *Journal) fail(werr error) {
	err := fmt.Errorf("journal %s: write: %w", j.path, werr)
	if terr := j.f.Truncate(j.size); terr != nil {
		err = fmt.Errorf("%w (and cutting back its torn last line failed: %v)", err, terr)
	}
	j.err = err
	close(j.failed)
	// The views following the run are told, though the file cannot be.
	j.publish(Event{Seq: j.seq + 1, Time: j.now().UTC(), Run: j.run, Lane: System, Kind: KindFailed, Text: err.Error()}, -1)
}

// KindFailed is the kind of the event live subscribers get when the journal
// fails; it is never in the file.
const KindFailed Kind = "journal-failed"

// Sync flushes the file to stable storage.
func (j *Journal) Sync() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.f.Sync()
}

// Close syncs and closes the file and ends every subscription.
func (j *Journal) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return nil
	}
	j.closed = true
	for id, s := range j.subs {
		s.flush = true
		s.end()
		delete(j.subs, id)
	}
	serr := j.f.Sync()
	cerr := j.f.Close()
	return errors.Join(serr, cerr)
}

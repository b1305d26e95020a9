// Package journal owns a run's append-only event log: the Event type, the
// lanes, writing events so that a kill -9 at any moment leaves only complete
// lines, publishing them to live subscribers, and reading a journal back.
//
// It must not interpret events: views (TUI, plain output, reports) do that.
package journal

import (
	"bufio"
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
	Kind string          `json:"kind"`
	Text string          `json:"text"`
	Data json.RawMessage `json:"data,omitempty"`
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
	mu     sync.Mutex
	f      *os.File
	run    string
	seq    int64
	subs   map[int]*subscriber
	nextID int
	closed bool
	now    func() time.Time
}

type subscriber struct {
	ch chan Event
	// A lossless subscriber gets every event through an unbounded queue
	// drained by its own goroutine, so a slow reader never blocks Append.
	lossless bool
	queue    []Event
	wake     chan struct{}
	done     chan struct{}
	flush    bool // deliver the queue when done (journal closed, not cancelled)
}

func (s *subscriber) pump(mu *sync.Mutex) {
	defer close(s.ch)
	for {
		mu.Lock()
		q := s.queue
		s.queue = nil
		mu.Unlock()
		for _, ev := range q {
			select {
			case s.ch <- ev:
			case <-s.done:
				if !s.flush {
					return
				}
				s.ch <- ev // the journal closed: the reader still gets everything
			}
		}
		select {
		case <-s.wake:
		case <-s.done:
			if !s.flush {
				return
			}
			// the journal closed: deliver what was queued, then stop
			mu.Lock()
			q := s.queue
			s.queue = nil
			mu.Unlock()
			for _, ev := range q {
				s.ch <- ev
			}
			return
		}
	}
}

// Open creates (or appends to) the journal file at path for run.
// Sequence numbers continue after the last complete line of an existing file.
func Open(path, run string) (*Journal, error) {
	var seq int64
	if evs, err := ReadFile(path); err == nil && len(evs) > 0 {
		seq = evs[len(evs)-1].Seq
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open journal %s: %w", path, err)
	}
	return &Journal{f: f, run: run, seq: seq, subs: map[int]*subscriber{}, now: time.Now}, nil
}

// Run returns the run id the journal belongs to.
func (j *Journal) Run() string { return j.run }

// Append records an event. data may be nil, a json.RawMessage, or any value
// that marshals to JSON. The line reaches the file in a single write(2), so a
// process killed at any moment leaves whole lines only.
func (j *Journal) Append(lane Lane, kind, text string, data any) (Event, error) {
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
	if _, err := j.f.Write(line); err != nil {
		return ev, fmt.Errorf("journal: write: %w", err)
	}
	for _, s := range j.subs {
		if s.lossless {
			s.queue = append(s.queue, ev)
			select {
			case s.wake <- struct{}{}:
			default:
			}
			continue
		}
		select {
		case s.ch <- ev:
		default: // a slow view loses streaming events, never the journal
		}
	}
	return ev, nil
}

// Subscribe returns a channel of every event appended from now on and a
// cancel function. A lossy subscriber misses events while its buffer is full;
// a lossless one never misses any (use it for views that must see approval
// requests and run completion). The channel is closed on cancel or Close.
func (j *Journal) Subscribe(buffer int, lossless bool) (<-chan Event, func()) {
	j.mu.Lock()
	defer j.mu.Unlock()
	id := j.nextID
	j.nextID++
	s := &subscriber{ch: make(chan Event, buffer), lossless: lossless}
	if j.closed {
		close(s.ch)
		return s.ch, func() {}
	}
	j.subs[id] = s
	if lossless {
		s.wake = make(chan struct{}, 1)
		s.done = make(chan struct{})
		go s.pump(&j.mu)
	}
	var once sync.Once
	return s.ch, func() {
		once.Do(func() {
			j.mu.Lock()
			defer j.mu.Unlock()
			if _, ok := j.subs[id]; ok {
				delete(j.subs, id)
				s.end()
			}
		})
	}
}

// end stops a subscriber; the caller holds the journal's lock.
func (s *subscriber) end() {
	if s.lossless {
		close(s.done)
		return
	}
	close(s.ch)
}

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

// ReadFile reads every complete event of a journal file. A final line without
// a newline (a write cut short by a crash) is ignored; a complete line that is
// not valid JSON is an error naming its line number.
func ReadFile(path string) ([]Event, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f)
}

// Read decodes events from r as ReadFile does.
func Read(r io.Reader) ([]Event, error) {
	br := bufio.NewReaderSize(r, 64*1024)
	var evs []Event
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			return evs, nil // an unterminated tail is an interrupted write
		}
		if err != nil {
			return evs, err
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var ev Event
		if err := json.Unmarshal(line, &ev); err != nil {
			return evs, fmt.Errorf("journal line %d: %w", n, err)
		}
		evs = append(evs, ev)
	}
}

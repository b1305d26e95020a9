package journal

import (
	"os"
	"sync"
)

// maxQueued bounds what a lossless subscriber that has fallen behind holds
// in memory, in events and in bytes of text and data. Past it, the
// subscriber stops queueing and its pump reads the events it missed back
// from the file (every event is on disk before it is published), so a view
// that cannot keep up with a coder printing for hours costs a bounded
// queue, not the run's whole output.
const (
	maxQueued      = 4096
	maxQueuedBytes = 4 << 20
)

type subscriber struct {
	ch chan Event
	// A lossless subscriber gets every event, through a bounded queue and
	// the file, drained by its own goroutine, so a slow reader never
	// blocks Append.
	lossless    bool
	queue       []Event
	queuedBytes int
	// behind is the file offset from which events were not queued (the
	// pump reads them back from the file); -1 when nothing was skipped.
	behind int64
	// late are events that are not in the file (the journal's failure),
	// published while behind: they follow what is read back.
	late  []Event
	wake  chan struct{}
	done  chan struct{}
	flush bool // deliver the rest when done (journal closed, not cancelled)
	// keep says which events the subscriber gets (nil: all).
	keep func(*Event) bool
}

func (s *subscriber) wants(ev *Event) bool { return s.keep == nil || s.keep(ev) }

// enqueue queues ev (whose line starts at off in the file; -1: not in the
// file) for a lossless subscriber; the caller holds the journal's lock.
func (s *subscriber) enqueue(ev Event, off int64) {
	switch {
	case off < 0 && s.behind >= 0:
		s.late = append(s.late, ev)
	case s.behind >= 0:
		// already behind: the pump reads this one back from the file
	case off >= 0 && (len(s.queue) >= maxQueued || s.queuedBytes >= maxQueuedBytes):
		s.behind = off
	default:
		s.queue = append(s.queue, ev)
		s.queuedBytes += len(ev.Text) + len(ev.Data)
	}
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *subscriber) pump(j *Journal) {
	defer close(s.ch)
	for {
		j.mu.Lock()
		q, late, from, to := s.queue, s.late, s.behind, j.size
		s.queue, s.late, s.queuedBytes, s.behind = nil, nil, 0, -1
		j.mu.Unlock()
		// Queued events come before the first skipped one, and the
		// journal's failure after everything in the file.
		if !s.send(q...) || (from >= 0 && !s.readBack(j.path, from, to)) || !s.send(late...) {
			return
		}
		if len(q) > 0 || len(late) > 0 || from >= 0 {
			continue // more may have come meanwhile
		}
		select {
		case <-s.wake:
		case <-s.done:
			if !s.flush {
				return
			}
			// the journal closed: deliver what is left, then stop
			j.mu.Lock()
			q, late, from, to := s.queue, s.late, s.behind, j.size
			s.queue, s.late, s.behind = nil, nil, -1
			j.mu.Unlock()
			_ = s.send(q...) && (from < 0 || s.readBack(j.path, from, to)) && s.send(late...)
			return
		}
	}
}

// send delivers evs in order; false when the subscription was cancelled.
func (s *subscriber) send(evs ...Event) bool {
	for _, ev := range evs {
		select {
		case s.ch <- ev:
		case <-s.done:
			if !s.flush {
				return false
			}
			s.ch <- ev // the journal closed: the reader still gets everything
		}
	}
	return true
}

// readBack delivers the events whose lines lie in [from, to) of the file.
// A journal that cannot be read back ends the delivery of that stretch: the
// file, which views read again, still has it.
func (s *subscriber) readBack(path string, from, to int64) bool {
	f, err := os.OpenFile(path, os.O_RDONLY|noFollow, 0)
	if err != nil {
		return true
	}
	defer f.Close()
	cancelled := false
	_ = Scan(newSectionReader(f, from, to), func(ev Event) error {
		if !s.wants(&ev) {
			return nil
		}
		if !s.send(ev) {
			cancelled = true
			return errCancelled
		}
		return nil
	})
	return !cancelled
}

// Subscribe returns a channel of every event appended from now on and a
// cancel function. A lossy subscriber misses events while its buffer is full;
// a lossless one never misses any (use it for views that must see approval
// requests and run completion). The channel is closed on cancel or Close.
func (j *Journal) Subscribe(buffer int, lossless bool) (<-chan Event, func()) {
	return j.SubscribeWhere(buffer, lossless, nil)
}

// SubscribeWhere is Subscribe for only the events keep accepts (nil: all).
// A view that never reads the coder's output says so here, and a coder
// printing for hours never fills its queue.
func (j *Journal) SubscribeWhere(buffer int, lossless bool, keep func(*Event) bool) (<-chan Event, func()) {
	j.mu.Lock()
	defer j.mu.Unlock()
	id := j.nextID
	j.nextID++
	s := &subscriber{ch: make(chan Event, buffer), lossless: lossless, behind: -1, keep: keep}
	if j.closed {
		close(s.ch)
		return s.ch, func() {}
	}
	j.subs[id] = s
	if lossless {
		s.wake = make(chan struct{}, 1)
		s.done = make(chan struct{})
		go s.pump(j)
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

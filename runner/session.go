package runner

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// Events replays the run's journal so far and then follows it; nothing is
// dropped. The channel closes when the run's journal closes or on cancel.
func (r *Run) Events() (<-chan journal.Event, func()) {
	live, cancel := r.journal.Subscribe(256, true)
	out := make(chan journal.Event, 256)
	stop := make(chan struct{})
	go func() {
		defer close(out)
		// The journal so far, one event at a time: a view that joins a long
		// run does not hold all of it.
		var last int64
		errStopped := errors.New("stopped")
		err := journal.ScanFile(filepath.Join(r.dir, "events.jsonl"), func(ev journal.Event) error {
			select {
			case out <- ev:
				last = ev.Seq
				return nil
			case <-stop:
				return errStopped
			}
		})
		if err == errStopped {
			return
		}
		for ev := range live {
			if ev.Seq <= last {
				continue // already replayed from the file
			}
			select {
			case out <- ev:
			case <-stop:
				return
			}
		}
	}()
	var once sync.Once
	return out, func() {
		once.Do(func() {
			close(stop)
			cancel()
		})
	}
}

// Prompts delivers requests waiting for the person (nil when no one is asked).
func (r *Run) Prompts() <-chan *approvals.Prompt {
	if r.opts.Approval.Person == nil {
		return nil
	}
	return r.opts.Approval.Person.Prompts()
}

// PastRequests returns the approval requests of every run of the project,
// oldest first, for the remember chooser's preview.
func (r *Run) PastRequests() []approvals.Request {
	return PastRequests(r.opts.Project)
}

// PastRequests reads every run journal of the project for approval requests.
func PastRequests(p *Project) []approvals.Request {
	metas, _ := ListRuns(p)
	var out []approvals.Request
	for i := len(metas) - 1; i >= 0; i-- {
		evs, _ := journal.ReadFileWhere(filepath.Join(p.RunDir(metas[i].ID), "events.jsonl"), func(ev *journal.Event) bool {
			return ev.Is(journal.Approval, approvals.KindRequest)
		})
		for _, ev := range evs {
			if req, ok := approvals.AsRequest(ev); ok && req.Kind != "" {
				out = append(out, req.Request)
			}
		}
	}
	return out
}

// Steer takes a message the person typed while the run is active. With a
// supervisor model it goes to the supervisor, which decides what to tell
// the coder (see relay.go); without one it goes to the coder as typed.
func (r *Run) Steer(text string) error {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil
	}
	if r.sup != nil {
		return r.coder.relay(text)
	}
	return r.coder.tellCoder(text)
}

// tellCoder sends text to the coder: as a protocol message for coders that
// have one, else typed into its terminal.
func (r *coderStage) tellCoder(text string) error {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil
	}
	c := r.cur()
	if c == nil {
		return errors.New("the coder is not running")
	}
	select {
	case <-c.done:
		return errors.New("the coder has already exited")
	default:
	}
	r.emit(journal.Coder, KindSteer, text, nil)
	if c.steer != nil {
		return c.steer(text)
	}
	return c.write(r.adapter.SteerBytes(text))
}

// ResizeCoder sets the coder pty's size.
func (r *Run) ResizeCoder(cols, rows int) {
	if c := r.coder.cur(); c != nil {
		c.resize(cols, rows)
	}
}

// SendKeys forwards raw key bytes to the coder (attach mode).
func (r *Run) SendKeys(b []byte) error {
	c := r.coder.cur()
	if c == nil {
		return errors.New("the coder is not running")
	}
	return c.write(b)
}

// socketPath is where the broker listens: a private directory of its own
// under the temp dir (0700, a name nobody can guess or take first), made
// once. Not the run directory: in place, the project — .sentinel/runs of
// every run there included — is mounted into each run's sandbox, and one
// run's coder must not find another's socket (its /tmp is private, so the
// other runs' directories there are out of its sight). The broker checks
// its peers too (approvals.InProcessTree). Only when that path would be
// too long for a unix socket is the run directory used.
func (r *containment) socketPath() string {
	r.sockOnce.Do(func() {
		r.sock = filepath.Join(r.dir, "broker.sock")
		d, err := os.MkdirTemp("", "sentinel-"+r.id+"-")
		if err != nil {
			return // listening in the run directory still works, or says why not
		}
		if p := filepath.Join(d, "broker.sock"); len(p) < 100 || len(r.sock) >= 100 {
			r.sock, r.sockDir = p, d
			return
		}
		_ = os.Remove(d)
	})
	return r.sock
}

// closeBroker closes the broker and removes its socket's private directory.
func (r *containment) closeBroker() {
	if r.broker != nil {
		r.broker.Close()
	}
	if r.sockDir != "" {
		_ = os.RemoveAll(r.sockDir)
	}
}

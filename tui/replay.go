package tui

import (
	"sync"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/runner"
)

// ReplaySession is a Session over recorded events: a finished run's journal
// shown again (what was shown live), or a scripted run in tests. It records
// what the TUI sends back so tests can check what reached the coder.
type ReplaySession struct {
	info    SessionInfo
	events  []journal.Event
	prompts chan *approvals.Prompt
	reviews chan *runner.ReviewRequest
	done    chan struct{}
	finish  sync.Once

	mu     sync.Mutex
	Past   []approvals.Request
	steers []string
	keys   []byte
	sizes  [][2]int
}

// NewReplay returns a session that replays events. The run counts as running
// until Finish or Stop.
func NewReplay(info SessionInfo, events []journal.Event) *ReplaySession {
	return &ReplaySession{info: info, events: events, prompts: make(chan *approvals.Prompt, 64),
		reviews: make(chan *runner.ReviewRequest, 4), done: make(chan struct{})}
}

// ReplayFile replays the journal at path as a finished run, its status-bar
// facts taken from the run-start event.
func ReplayFile(path string) (*ReplaySession, error) {
	evs, err := journal.ReadFile(path)
	if err != nil {
		return nil, err
	}
	info := SessionInfo{Journal: path}
	for _, ev := range evs {
		if info.RunID == "" {
			info.RunID, info.Started = ev.Run, ev.Time
		}
		if ev.Is(journal.System, runner.KindRunStart) {
			d, _ := runner.AsRunStart(ev)
			info.Task, info.Coder, info.Sandbox = d.Task, d.Coder, d.Sandbox
			info.SandboxOff = d.Sandbox == "off"
		}
	}
	r := NewReplay(info, evs)
	r.Finish()
	return r, nil
}

// Prompt queues a request for the person, as the broker would.
func (r *ReplaySession) Prompt(p *approvals.Prompt) { r.prompts <- p }

// Finish marks the run as ended.
func (r *ReplaySession) Finish() { r.finish.Do(func() { close(r.done) }) }

func (r *ReplaySession) Info() SessionInfo { return r.info }

func (r *ReplaySession) Events() (<-chan journal.Event, func()) {
	ch := make(chan journal.Event)
	stop := make(chan struct{})
	go func() {
		defer close(ch)
		for _, ev := range r.events {
			select {
			case ch <- ev:
			case <-stop:
				return
			}
		}
	}()
	var once sync.Once
	return ch, func() { once.Do(func() { close(stop) }) }
}

func (r *ReplaySession) Prompts() <-chan *approvals.Prompt { return r.prompts }

// Review queues a review request for the person, as a finished run would.
func (r *ReplaySession) Review(req *runner.ReviewRequest) { r.reviews <- req }

func (r *ReplaySession) Reviews() <-chan *runner.ReviewRequest { return r.reviews }

func (r *ReplaySession) PastRequests() []approvals.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]approvals.Request(nil), r.Past...)
}

func (r *ReplaySession) Steer(text string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.steers = append(r.steers, text)
	return nil
}

func (r *ReplaySession) ResizeCoder(cols, rows int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sizes = append(r.sizes, [2]int{cols, rows})
}

func (r *ReplaySession) SendKeys(b []byte) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.keys = append(r.keys, b...)
	return nil
}

func (r *ReplaySession) Stop()                 { r.Finish() }
func (r *ReplaySession) Done() <-chan struct{} { return r.done }

// Steers returns every steering message sent.
func (r *ReplaySession) Steers() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.steers...)
}

// Keys returns every byte sent to the coder.
func (r *ReplaySession) Keys() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]byte(nil), r.keys...)
}

// Sizes returns every size the coder was given.
func (r *ReplaySession) Sizes() [][2]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([][2]int(nil), r.sizes...)
}

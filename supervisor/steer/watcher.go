package steer

import (
	"fmt"
	"strings"
	"sync"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/supervisor"
)

// Watcher consumes a run's journal events and steers the coder once per
// finding per coder generation: a fresh coder that repeats the drift its
// predecessor was steered about is steered again. It is safe for
// concurrent use.
type Watcher struct {
	// Steer sends text to the coder (the runner's Run.Steer).
	Steer func(text string) error
	// Prompts hold the steering messages ([steer] in prompts.toml); nil
	// means the built-in ones.
	Prompts *supervisor.Prompts
	// Journal, when set, records each finding on the supervisor lane
	// (kind "steer-finding") before the coder is told.
	Journal *journal.Journal
	// NewCoder says an event marks the start of a fresh coder generation
	// (the runner's restart event); the findings already steered about
	// are forgotten there. Nil: one generation for the whole journal.
	NewCoder func(journal.Event) bool

	mu sync.Mutex
	d  Detector
}

// Observe takes one journal event (feed it every event, e.g. through
// supervisor.Supervisor.Follow or journal.Subscribe).
func (w *Watcher) Observe(ev journal.Event) {
	if ev.Lane == journal.Supervisor {
		return // never react to our own notes
	}
	w.mu.Lock()
	if w.NewCoder != nil && w.NewCoder(ev) {
		w.d = Detector{Repeats: w.d.Repeats}
	}
	found := w.d.Observe(ev)
	w.mu.Unlock()
	for _, f := range found {
		w.steer(f)
	}
}

// Message is the steering text for f, on one line: a newline typed into
// an agent's prompt could send half a message.
func (w *Watcher) Message(f Finding) string {
	p := w.Prompts
	if p == nil {
		p = supervisor.DefaultPrompts()
	}
	text, err := p.Render("steer."+string(f.Kind), map[string]string{"Detail": f.Detail})
	if err != nil {
		return "Sentinel supervisor: " + f.Detail
	}
	return strings.Join(strings.Fields(text), " ")
}

func (w *Watcher) steer(f Finding) {
	text := w.Message(f)
	if w.Journal != nil {
		// A failed append fails the journal, and the run stops on that (runner.watchJournal).
		_, _ = w.Journal.Append(journal.Supervisor, EventFinding, fmt.Sprintf("noticed (%s): %s", f.Kind, f.Detail), f)
	}
	if w.Steer == nil {
		return
	}
	if err := w.Steer(text); err != nil && w.Journal != nil {
		_, _ = w.Journal.Append(journal.Supervisor, EventError, "could not steer the coder: "+err.Error(), nil)
	}
}

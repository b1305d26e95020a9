package service

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/internal/servicewire"
	"github.com/sentinelhq/sentinel/runner"
)

// Registrar registers runs with the user service: runner.Registrar. It
// never blocks a run for long nor fails it: with no service the run goes
// on as without one, and a service that starts later is found (the
// registration is retried every RetryEvery while the run lasts).
type Registrar struct {
	Mode string // run, exec: what kind of launch this process is, when the run does not say
}

// How long Register waits for the service's answer before it lets the run
// go on (a missing socket answers at once), and how often a run with no
// service looks for one again.
const (
	registerWait = 500 * time.Millisecond
	RetryEvery   = time.Second
	stateTimeout = time.Second
)

// Register starts the run's registration and returns once the service has
// answered, or registerWait has passed.
func (g Registrar) Register(r runner.RunRegistration) runner.Registered {
	ctx, cancel := context.WithCancel(context.Background())
	h := &handle{id: r.ID, cancel: cancel, kick: make(chan struct{}, 1), done: make(chan struct{})}
	mode := r.Mode
	if mode == "" {
		mode = g.Mode
	}
	body := Registration{RunID: r.ID, Project: r.Project, Coder: r.Coder, Mode: mode, PID: r.PID, Started: r.Started.UTC()}
	first := make(chan struct{})
	go h.register(ctx, body, first)
	go h.states(ctx)
	select {
	case <-first:
	case <-time.After(registerWait):
	}
	return h
}

type handle struct {
	id     string
	cancel context.CancelFunc
	kick   chan struct{}
	done   chan struct{} // closed when the last state has been sent

	mu     sync.Mutex
	state  string
	sent   string
	ended  bool
	online bool
}

// register holds the registration open while the run lasts, and looks for
// the service again when there is none or it went away. A refusal is not
// retried.
func (h *handle) register(ctx context.Context, body Registration, first chan struct{}) {
	var once sync.Once
	signalFirst := func() { once.Do(func() { close(first) }) }
	defer signalFirst()
	for {
		err := servicewire.Stream(ctx, OpRegister, body, func(json.RawMessage) error {
			h.mu.Lock()
			h.online, h.sent = true, ""
			h.mu.Unlock()
			h.poke()
			signalFirst()
			return nil
		}, nil)
		h.mu.Lock()
		h.online = false
		h.mu.Unlock()
		signalFirst()
		var re *servicewire.RemoteError
		if ctx.Err() != nil || errors.As(err, &re) {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(RetryEvery):
		}
	}
}

func (h *handle) poke() {
	select {
	case h.kick <- struct{}{}:
	default:
	}
}

// states sends the latest state whenever it changes while registered; at
// the end it sends the last one and closes the registration.
func (h *handle) states(ctx context.Context) {
	for {
		select {
		case <-h.kick:
		case <-ctx.Done():
			return
		}
		h.mu.Lock()
		st, online, ended := h.state, h.online, h.ended
		send := online && st != "" && st != h.sent
		h.mu.Unlock()
		if send {
			sctx, stop := context.WithTimeout(ctx, stateTimeout)
			if servicewire.Do(sctx, OpState, StateChange{RunID: h.id, State: st}, nil) == nil {
				h.mu.Lock()
				h.sent = st
				h.mu.Unlock()
			}
			stop()
		}
		if ended {
			close(h.done)
			h.cancel()
			return
		}
	}
}

// State records the run's new state; it is sent in the background.
func (h *handle) State(state string) {
	h.mu.Lock()
	h.state = state
	h.mu.Unlock()
	h.poke()
}

// End records the run's end: its status is sent, then the registration
// closes. It waits for that at most registerWait, and only with a service
// to tell: the process may exit right after.
func (h *handle) End(s runner.Status) {
	h.mu.Lock()
	h.state, h.ended = string(s), true
	online := h.online
	h.mu.Unlock()
	h.poke()
	if online {
		select {
		case <-h.done:
		case <-time.After(registerWait):
		}
	}
}

package runner

import (
	"sync/atomic"
	"time"
)

// Registrar tells someone outside the run (the user service: see
// runner/service) that the run exists, how it goes and how it ended, so
// that the machine's agents can be told apart: a run's own agent is
// "launched", any other is not. Every method must return promptly and
// never fail the run: a registrar that cannot reach anyone drops the news
// and the run goes on exactly as without one.
type Registrar interface {
	Register(RunRegistration) Registered
}

// Registered is one run's registration.
type Registered interface {
	State(state string) // a change of the run's state (running, landing, ...)
	End(status Status)  // the run ended; nothing follows
}

// RunRegistration is what a run says about itself. The service believes
// none of it beyond what the kernel confirms (the pid of the socket's peer
// and that pid's start time).
type RunRegistration struct {
	ID      string
	Project string
	Coder   string
	PID     int // this process: the ancestor of the run's agent
	Started time.Time
	Mode    string // "run" or "exec" (in place)
}

var defaultRegistrar atomic.Pointer[Registrar]

// SetDefaultRegistrar sets the registrar every run of this process uses
// when its Options name none (cmd/sentinel sets the user service's, so that
// `run` and `exec` alike register).
func SetDefaultRegistrar(r Registrar) { defaultRegistrar.Store(&r) }

// register registers the run with o's registrar, else the default; a nil
// result is a run nobody is told about.
func (o Options) register(reg RunRegistration) Registered {
	r := o.Registrar
	if r == nil {
		if p := defaultRegistrar.Load(); p != nil {
			r = *p
		}
	}
	if r == nil {
		return nil
	}
	return r.Register(reg)
}

// registration is the run's registration with the user service, if any;
// its state and end tell it, and do nothing for a run nobody is told about.
type registration struct{ to Registered }

func (g *registration) state(state string) {
	if g.to != nil {
		g.to.State(state)
	}
}

// end tells the registration the run ended, once.
func (g *registration) end(s Status) {
	if g.to != nil {
		g.to.End(s)
		g.to = nil
	}
}

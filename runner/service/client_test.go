package service

import (
	"context"
	"errors"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/poll"
	"github.com/sentinelhq/sentinel/internal/servicewire"
	"github.com/sentinelhq/sentinel/runner"
)

// serveHere starts a service for this test on a socket in a temporary
// XDG_RUNTIME_DIR and stops it (waiting for it) when the test ends.
func serveHere(t *testing.T, s *Service) {
	t.Helper()
	rt := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", rt)
	path, err := servicewire.SocketPath()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := servicewire.Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	mux := servicewire.NewMux()
	s.Mount(mux)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); _ = servicewire.Serve(ctx, ln, mux) }()
	t.Cleanup(func() { cancel(); wg.Wait() })
}

func runOf(s *Service, id string) (RunEntry, bool) {
	for _, e := range s.Listing().Runs {
		if e.RunID == id {
			return e, true
		}
	}
	return RunEntry{}, false
}

// waitFor polls cond, bounded by a generous deadline (not a speed check).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	poll.Must(t, 30*time.Second, what, cond)
}

func TestRegistrarRegistersARunForItsLife(t *testing.T) {
	s := New(Options{})
	serveHere(t, s)
	const id = "20260101-000000-bbbbbb"
	h := Registrar{}.Register(runner.RunRegistration{ID: id, Project: "/p", Coder: "demo", PID: os.Getpid(), Started: time.Now()})
	e, ok := runOf(s, id)
	if !ok || e.PID != os.Getpid() || e.PeerPID != os.Getpid() || e.Ended != nil {
		t.Fatalf("after Register returned, the service has %+v (%v)", e, ok)
	}
	h.State("landing")
	waitFor(t, "the run's state reaches the service", func() bool { e, _ := runOf(s, id); return e.State == "landing" })
	h.End(runner.StatusLanded)
	waitFor(t, "the run's end reaches the service", func() bool { e, _ := runOf(s, id); return e.Ended != nil })
	if e, _ := runOf(s, id); e.State != string(runner.StatusLanded) {
		t.Fatalf("the ended run's state is %q, want landed", e.State)
	}

	// A client claiming another process's pid is refused with the reason.
	err := servicewire.Do(context.Background(), OpRegister, Registration{RunID: "x", PID: 1}, nil)
	var re *servicewire.RemoteError
	if !errors.As(err, &re) {
		t.Fatalf("a registration for pid 1 from this process: %v", err)
	}
	if _, ok := runOf(s, "x"); ok {
		t.Fatal("the refused registration is in the registry")
	}
}

func TestRegistrarWithNoServiceLetsTheRunGoOn(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	h := Registrar{}.Register(runner.RunRegistration{ID: "20260101-000000-cccccc", PID: os.Getpid(), Started: time.Now()})
	h.State("running")
	h.End(runner.StatusFailed) // returns at once; nothing to tell
}

package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/internal/servicewire"
	"github.com/sentinelhq/sentinel/policy"
	"github.com/sentinelhq/sentinel/runner"
)

// TestEveryViewTellsARunWithOneWord feeds the same run records to each
// view: sentinel runs (both tables), the state a run reports to the service
// when it ends and the one the service settles a dead run to (sentinel
// status, the console, the web page show it), and the TUI's end line (the
// run's end event); each must read the same word (#37 point 10).
func TestEveryViewTellsARunWithOneWord(t *testing.T) {
	rec := "/src/p/.sentinel/recovery/x"
	cases := []struct {
		m    runner.Meta
		want string
	}{
		{runner.Meta{Status: runner.StatusLanded, Landing: &runner.Landing{Files: []string{"a.go"}}}, "landed"},
		{runner.Meta{Status: runner.StatusLanded, Landing: &runner.Landing{Nothing: true}}, "no changes"},
		{runner.Meta{Status: runner.StatusLanded, Landing: &runner.Landing{Mode: runner.ApplyNone, Files: []string{"a.go"}}}, "kept"},
		{runner.Meta{Status: runner.StatusRejected, Recovery: rec}, "rejected (recovery)"},
		{runner.Meta{Status: runner.StatusPending, Recovery: rec}, "awaiting-review (recovery)"},
		{runner.Meta{Status: runner.StatusInterrupted, Recovery: rec}, "interrupted (recovery)"},
		{runner.Meta{Status: runner.StatusFailed, Recovery: rec}, "failed (recovery)"},
		{runner.Meta{Status: runner.StatusFailed, Recovery: rec, Stuck: true}, "stuck (recovery)"},
		{runner.Meta{Status: runner.StatusDone, InPlace: true}, "done"},
	}
	me := servicewire.Peer{PID: os.Getpid()}
	for i, c := range cases {
		m := c.m
		m.ID = "run" + string(rune('a'+i))
		views := map[string]string{
			"runs (pipe)":     statusText(&m, nil),
			"runs (terminal)": shortStatus(&m, nil),
			"run end (TUI)":   runner.Result{Status: m.Status, Landing: m.Landing, Recovery: m.Recovery, Stuck: m.Stuck}.StateOf(),
			"reported":        finalState(runner.Result{Status: m.Status, Landing: m.Landing, Recovery: m.Recovery, Stuck: m.Stuck}.StateOf(), m.Status, t.TempDir()),
			"settled":         finalState(runner.StateOf(&m), m.Status, t.TempDir()),
		}
		// sentinel status: what the service answers for the run reported so.
		q := queue.New(nil)
		if err := q.Report(me, queue.Report{Run: m.ID, Project: "/src/p", Coder: "claude", State: queue.StateRunning, Started: time.Now()}); err != nil {
			t.Fatal(err)
		}
		if err := q.Report(me, queue.Report{Run: m.ID, Project: "/src/p", Coder: "claude", State: views["reported"], Started: time.Now()}); err != nil {
			t.Fatalf("%s: the service refused the state: %v", c.want, err)
		}
		st := q.Statuses()
		if len(st) != 1 {
			t.Fatalf("%s: status lists %d runs", c.want, len(st))
		}
		views["status"] = st[0].State
		for view, got := range views {
			if got != c.want {
				t.Errorf("%s says %q of a run every view must call %q", view, got, c.want)
			}
		}
		var b bytes.Buffer
		writeStatusTable(&b, st, time.Now())
		if !strings.Contains(b.String(), c.want) {
			t.Errorf("sentinel status does not say %q:\n%s", c.want, b.String())
		}
		if waits := strings.Contains(b.String(), "1 waiting for you"); waits != (m.Status == runner.StatusPending) {
			t.Errorf("%s: sentinel status counts it waiting for you: %v\n%s", c.want, waits, b.String())
		}
	}
}

// TestRunsAndStatusSayWaitingAlike: a running run a request waits on is
// "waiting for you" in sentinel status and in sentinel runs (both tables),
// from one function (queue.Live) (#37 point 10).
func TestRunsAndStatusSayWaitingAlike(t *testing.T) {
	q := queue.New(nil)
	me := servicewire.Peer{PID: os.Getpid()}
	root := t.TempDir()
	if err := q.Report(me, queue.Report{Run: "r1", Project: root, Coder: "claude", State: queue.StateRunning, Started: time.Now()}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	posted := make(chan struct{})
	go func() {
		_, _ = q.Post(ctx, me, queue.Post{Run: "r1", Project: root, Request: approvals.Request{Kind: policy.KindShell, Command: "make deploy"}},
			func(queue.Posted) error { close(posted); return nil })
	}()
	<-posted
	st := q.Statuses()
	m := runner.Meta{ID: "r1", Status: runner.StatusRunning}
	pending := pendingIn(st, root)
	views := map[string]string{"status": st[0].State, "runs (pipe)": statusText(&m, pending), "runs (terminal)": shortStatus(&m, pending)}
	for view, got := range views {
		if got != queue.StateWaiting {
			t.Errorf("%s says %q of a run a request waits on, want %q", view, got, queue.StateWaiting)
		}
	}
}

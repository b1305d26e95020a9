package acp

import (
	"context"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/sentinelhq/sentinel/approvals"
)

func TestNext(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		reason   sdk.StopReason
		queued   []string
		denials  []string
		wantOK   bool
		wantHas  []string // substrings, in order
		wantNone string   // a substring that must not appear
	}{
		{"end_turn with nothing left ends", sdk.StopReasonEndTurn, nil, nil, false, nil, ""},
		{"denials become one follow-up", sdk.StopReasonEndTurn, nil, []string{"shell `rm -rf /`: no deleting", "write `/ws/x`: not x"}, true,
			[]string{"Sentinel, which approves your actions, denied", "rm -rf /", "no deleting", "not x"}, ""},
		{"steering comes before denials", sdk.StopReasonCancelled, []string{"use tabs"}, []string{"shell `make`: later"}, true,
			[]string{"use tabs", "Sentinel, which approves your actions, denied", "later"}, ""},
		{"steering alone after a cancel", sdk.StopReasonCancelled, []string{"stop", "do y"}, nil, true,
			[]string{"stop", "do y"}, "Sentinel, which approves"},
		{"max_tokens ends the session", sdk.StopReasonMaxTokens, []string{"go on"}, []string{"shell `x`: no"}, false, nil, ""},
		{"refusal ends the session", sdk.StopReasonRefusal, []string{"go on"}, nil, false, nil, ""},
		{"max_turn_requests ends the session", sdk.StopReasonMaxTurnRequests, nil, []string{"shell `x`: no"}, false, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &Session{client: &client{denied: append([]string(nil), tt.denials...)}, queue: append([]string(nil), tt.queued...)}
			got, ok := s.next(tt.reason)
			if ok != tt.wantOK {
				t.Fatalf("next(%s) = %q, %v; want ok %v", tt.reason, got, ok, tt.wantOK)
			}
			if strings.Count(got, "Sentinel, which approves your actions, denied") > 1 {
				t.Errorf("more than one denial notice: %q", got)
			}
			rest := got
			for _, w := range tt.wantHas {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("next = %q; want %q (in order)", got, w)
				}
				rest = rest[i+len(w):]
			}
			if tt.wantNone != "" && strings.Contains(got, tt.wantNone) {
				t.Errorf("next = %q; must not contain %q", got, tt.wantNone)
			}
			if len(s.queue) != 0 {
				t.Errorf("queue not emptied: %q", s.queue)
			}
		})
	}
}

// A program that does not speak ACP gets an error from Start naming it, not
// a hang: one that exits, one that echoes the request back, one that prints
// something else and never answers (StartTimeout ends that one).
func TestStartRefusesANonACPProgram(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		argv []string
	}{
		{"exits at once", []string{"true"}},
		{"echoes its input", []string{"cat"}},
		{"never answers", []string{"sh", "-c", "echo hello, not json; exec sleep 600"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := exec.LookPath(tt.argv[0]); err != nil {
				t.Skipf("%s not on PATH", tt.argv[0])
			}
			cmd := exec.Command(tt.argv[0], tt.argv[1:]...)
			cmd.Dir = t.TempDir()
			var asked atomic.Bool
			type result struct {
				s   *Session
				err error
			}
			done := make(chan result, 1)
			go func() {
				s, err := Start(context.Background(), cmd, Config{Task: "hi", StartTimeout: 5 * time.Second,
					Ask: func(context.Context, approvals.Request) approvals.Decision {
						asked.Store(true)
						return approvals.Decision{}
					}})
				done <- result{s, err}
			}()
			var res result
			select {
			case res = <-done:
			case <-time.After(2 * time.Minute): // a hang guard, not a timing assertion
				t.Fatal("Start did not return for a program that is not an ACP agent")
			}
			if res.err == nil {
				res.s.Stop(time.Second)
				t.Fatalf("Start(%q) succeeded; want an error", tt.argv)
			}
			if msg := res.err.Error(); !strings.Contains(msg, "ACP agent") || strings.Contains(msg, "\n") {
				t.Errorf("Start(%q) error %q; want one line asking whether it is an ACP agent", tt.argv, msg)
			}
			t.Logf("Start(%q): %v", tt.argv, res.err)
			if cmd.ProcessState == nil {
				t.Errorf("the program was left running after Start failed")
			}
			if asked.Load() {
				t.Errorf("the broker was asked about something")
			}
		})
	}
}

// An agent that keeps ending its turns on denied requests is followed up
// maxDenialRounds times, then not prompted again; steering resets the count.
func TestDenialFollowUpsAreBounded(t *testing.T) {
	t.Parallel()
	var lines []Line
	s := &Session{client: &client{emit: func(l Line) { lines = append(lines, l) }}}
	for i := 1; i <= maxDenialRounds; i++ {
		s.client.denied = []string{"shell `curl x | sh`: no"}
		if _, ok := s.next(sdk.StopReasonEndTurn); !ok {
			t.Fatalf("follow-up %d was not sent", i)
		}
	}
	s.client.denied = []string{"shell `curl x | sh`: no"}
	if got, ok := s.next(sdk.StopReasonEndTurn); ok {
		t.Fatalf("follow-up %d sent: %q", maxDenialRounds+1, got)
	}
	if len(lines) != 1 || !strings.Contains(lines[0].Text, "not prompting it again") {
		t.Errorf("journal lines = %+v", lines)
	}
	s.denialRounds = maxDenialRounds
	s.queue = []string{"try another way"}
	s.client.denied = []string{"shell `curl x | sh`: no"}
	if _, ok := s.next(sdk.StopReasonCancelled); !ok || s.denialRounds != 0 {
		t.Errorf("steering did not go out or reset the count (%d)", s.denialRounds)
	}
}

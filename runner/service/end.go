package service

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// end ends an agent the policy does not allow: TERM, then KILL once the
// grace has passed, each signal only to the very process that was
// classified (signal checks its start time and owner through a pidfd).
// What was ended, how and why goes to the journal.
func (s *Service) end(ctx context.Context, a Agent, why string) {
	t := Target{PID: a.PID, Start: a.StartMS}
	if s.launchedNow(ctx, a.PID) {
		// Its run registered since the scan: a launched run's agent is
		// never ended. The next scan classifies it again.
		s.mu.Lock()
		if tr := s.agents[t]; tr != nil {
			tr.ending = false
		}
		s.mu.Unlock()
		return
	}
	how := "TERM"
	sub := s.subtree(ctx, a.PID)
	s.note(journal.System, KindAgentEnding, fmt.Sprintf("ending %s (pid %d) in %s and %d processes it started, with TERM: %s", a.Program, a.PID, a.Cwd, len(sub), why),
		Ending{Agent: a, Signal: "TERM", Why: why, Descendants: pids(sub)})
	err := signal(ctx, t, syscall.SIGTERM)
	for _, d := range sub {
		_ = signal(ctx, d, syscall.SIGTERM) // each checked as the agent is; one gone already is fine
	}
	if err == nil && !s.waitGone(ctx, t, s.opts.Grace) {
		how = "KILL"
		s.note(journal.System, KindAgentEnding, fmt.Sprintf("%s (pid %d) outlived the %s grace: KILL", a.Program, a.PID, s.opts.Grace),
			Ending{Agent: a, Signal: "KILL", Why: why, Descendants: pids(sub)})
		err = signal(ctx, t, syscall.SIGKILL)
		if err == nil {
			s.waitGone(ctx, t, 5*time.Second)
		}
	}
	for _, d := range sub {
		if alive(ctx, d) {
			_ = signal(ctx, d, syscall.SIGKILL)
		}
	}
	now := s.now()
	a.State, a.Ended = StateTerminated, &now
	switch {
	case errors.Is(err, errGone):
		a.Reason = "exited before it could be ended"
	case err != nil:
		a.Reason = "could not be ended: " + err.Error()
	case alive(ctx, t):
		a.Reason = "still running after " + how + ": " + why
	default:
		a.Reason = "ended with " + how + ": " + why
	}
	s.note(journal.System, KindAgentTerminated, fmt.Sprintf("%s (pid %d) %s", a.Program, a.PID, a.Reason), a)
}

// waitGone waits up to d for the process t to be gone.
func (s *Service) waitGone(ctx context.Context, t Target, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for alive(ctx, t) {
		if !time.Now().Before(deadline) {
			return false
		}
		select {
		case <-ctx.Done():
			return !alive(ctx, t)
		case <-time.After(50 * time.Millisecond):
		}
	}
	return true
}

// subtree is every process this user runs below pid, except a registered
// run's process and anything below one: an agent started by hand may have
// started `sentinel run`, whose agent is launched and never ended.
func (s *Service) subtree(ctx context.Context, pid int32) []Target {
	t, err := readProcs(ctx)
	if err != nil {
		return nil
	}
	runs := s.liveRuns(ctx)
	me := os.Getuid()
	var out []Target
	for _, p := range t {
		if p.UID != me || !descends(t, p.PID, pid) || runs[p.PID] != nil {
			continue
		}
		underRun := false
		for _, anc := range t.ancestors(p.PID) {
			if anc == pid {
				break
			}
			if runs[anc] != nil {
				underRun = true
				break
			}
		}
		if underRun {
			continue
		}
		if st, ok := startOf(ctx, p.PID); ok {
			out = append(out, Target{PID: p.PID, Start: st})
		}
	}
	return out
}

func pids(ts []Target) []int32 {
	out := make([]int32, 0, len(ts))
	for _, t := range ts {
		out = append(out, t.PID)
	}
	return out
}

// launchedNow says whether pid is, right now, a live registered run's
// process or below one.
func (s *Service) launchedNow(ctx context.Context, pid int32) bool {
	t, err := readProcs(ctx)
	if err != nil {
		return true // unknown: do not end what cannot be checked
	}
	runs := s.liveRuns(ctx)
	if runs[pid] != nil {
		return true
	}
	for _, a := range t.ancestors(pid) {
		if runs[a] != nil {
			return true
		}
	}
	return false
}

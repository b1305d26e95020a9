package acp

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
)

// An agent that keeps writing while it opens its session (as opencode
// logs on a loaded machine) is not cut off after StartTimeout: silence is
// what the bound measures. StartCap still ends one that talks but never
// answers. (A silent one is ended after StartTimeout: the "never answers"
// case of TestStartRefusesANonACPProgram.)
func TestStartBoundsSilenceNotWork(t *testing.T) {
	t.Parallel()
	cmd := exec.Command("sh", "-c", "while :; do echo still working >&2; sleep 0.2; done")
	cmd.Dir = t.TempDir()
	idle, limit := 2*time.Second, 6*time.Second
	done := make(chan error, 1)
	go func() {
		s, err := Start(context.Background(), cmd, Config{Task: "hi", StartTimeout: idle, StartCap: limit,
			Ask: func(context.Context, approvals.Request) approvals.Decision { return approvals.Decision{} }})
		if err == nil {
			s.Stop(time.Second)
		}
		done <- err
	}()
	var err error
	select {
	case err = <-done:
	case <-time.After(2 * time.Minute): // a hang guard, not a timing assertion
		t.Fatal("Start did not return for an agent that never answers")
	}
	if err == nil {
		t.Fatal("Start succeeded for an agent that never answers")
	}
	if msg := err.Error(); !strings.Contains(msg, "kept writing") {
		t.Errorf("Start: %v; want it ended by StartCap (%v) for an agent that kept writing, not by %v of silence", err, limit, idle)
	}
	if cmd.ProcessState == nil {
		t.Errorf("the agent was left running after Start failed")
	}
}

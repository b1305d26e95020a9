package supervisor

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/policy"
)

// The supervisor as the broker's decider: the way a walk-away run wires it.
func TestSupervisorBehindTheBroker(t *testing.T) {
	b, sent := startOpenAI(t, answer{verdict: &Verdict{"allow", "frobnicate is the project's build tool", "low"}})
	dir := t.TempDir()
	j, read := openJournal(t)
	s := NewSupervisor(Options{Backend: b, Task: "build it", Journal: j})
	stop := s.Follow(j)
	defer stop()
	ws := t.TempDir()
	br, err := approvals.NewBroker(approvals.BrokerConfig{SocketPath: filepath.Join(dir, "s.sock"), RunID: "run-test",
		Context: policy.Context{Workspace: ws, Cwd: ws, Home: t.TempDir()}, Decider: s, Timeout: 30 * time.Second, Journal: j})
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()

	d := br.Decide(context.Background(), approvals.Request{Kind: policy.KindShell, Command: "frobnicate --all", Cwd: ws})
	if !d.Allowed() || d.By != ByWho {
		t.Fatalf("gray-zone shell: %+v, want allowed by the supervisor", d)
	}
	d = br.Decide(context.Background(), approvals.Request{Kind: policy.KindNet, Host: "exfil.example", Port: 443})
	if d.Allowed() {
		t.Fatalf("a new host was allowed without a person: %+v", d)
	}
	if n := len(sent()); n != 1 {
		t.Errorf("%d model turns, want 1 (the net request must not reach the model)", n)
	}
	var lanes []string
	for _, ev := range read() {
		if ev.Lane == journal.Supervisor || (ev.Lane == journal.Approval && ev.Kind == "decision") {
			lanes = append(lanes, string(ev.Lane)+"/"+string(ev.Kind))
		}
	}
	if got := strings.Join(lanes, " "); got != "supervisor/judge approval/decision approval/decision" {
		t.Errorf("journal shows %q", got)
	}
}

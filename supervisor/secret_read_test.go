package supervisor

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/policy"
)

// A supervisor model that would allow anything still cannot let a read of a
// secret file through: the policy marks it person-only, whatever spelling
// the line uses.
func TestSupervisorCannotAllowASecretRead(t *testing.T) {
	b, sent := startOpenAI(t, answer{verdict: &Verdict{"allow", "reading config is fine", "low"}})
	dir := t.TempDir()
	j, _ := openJournal(t)
	s := NewSupervisor(Options{Backend: b, Task: "fix the bug", Journal: j})
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, ".env"), []byte("API_KEY=x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	br, err := approvals.NewBroker(approvals.BrokerConfig{SocketPath: filepath.Join(dir, "s.sock"), RunID: "run-test",
		Context: policy.Context{Workspace: ws, Cwd: ws, Home: t.TempDir()}, Decider: s, Timeout: 30 * time.Second, Journal: j})
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	for _, req := range []approvals.Request{
		{Kind: policy.KindShell, Command: "cat .env", Cwd: ws},
		{Kind: policy.KindShell, Command: "grep -h KEY .env*", Cwd: ws},
		{Kind: policy.KindShell, Command: "git show HEAD:.env", Cwd: ws},
		{Kind: policy.KindRead, Path: filepath.Join(ws, ".env"), Cwd: ws},
	} {
		d := br.Decide(context.Background(), req)
		if d.Allowed() {
			t.Errorf("%s %q%s was allowed by %s: a secret read must need a person", req.Kind, req.Command, req.Path, d.By)
		}
	}
	if n := len(sent()); n != 0 {
		t.Errorf("%d model turns, want 0 (a secret read must not reach the model)", n)
	}
}

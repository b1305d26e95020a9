package approvals

import (
	"context"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/sentinelhq/sentinel/policy"
)

// `cat .env` where the sandbox hides .env is not offered: approving it
// would give the coder an empty read. It is denied at once with the reason
// the Read tool gets; where the sandbox shows the file, it is asked as
// before.
func TestAShellReadOfAHiddenPathIsNotOffered(t *testing.T) {
	ws := t.TempDir()
	env := filepath.Join(ws, ".env")
	for _, hidden := range []bool{true, false} {
		var asked atomic.Int32
		decider := DeciderFunc(func(ctx context.Context, p *Prompt) Decision {
			asked.Add(1)
			return Decision{Outcome: OutcomeAllow, By: "person", Reason: "test"}
		})
		r := startBroker(t, BrokerConfig{Decider: decider, Policy: policy.Default(),
			Context: policy.Context{Workspace: ws, Cwd: ws},
			Sees:    func(p string, write bool) bool { return !hidden || p != env }})
		d := ask(t, r.socket, Request{Kind: policy.KindShell, Command: "cat .env", Cwd: ws, Tool: "Bash", Adapter: "claude"})
		switch {
		case hidden && (d.Allowed() || d.By != "sandbox" || d.Reason != sandboxHides(env) || asked.Load() != 0):
			t.Errorf("hidden .env: %+v (asked %d), want the sandbox's deny without asking", d, asked.Load())
		case !hidden && (d.By == "sandbox" || asked.Load() != 1):
			t.Errorf("shown .env: %+v (asked %d), want it asked", d, asked.Load())
		}
	}
}

func TestReadOperandsSkipFlagsAndPatterns(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		want string
	}{
		{[]string{"cat", "-n", ".env", "b"}, "[.env b]"},
		{[]string{"grep", "-r", "SECRET", ".env"}, "[.env]"},
		{[]string{"/usr/bin/head", "--", "-odd"}, "[-odd]"},
		{[]string{"echo", ".env"}, "[]"},
		{[]string{"cat"}, "[]"},
	} {
		if got := fmt.Sprint(readOperands(tc.argv)); got != tc.want {
			t.Errorf("readOperands(%q) = %s, want %s", tc.argv, got, tc.want)
		}
	}
}

package approvals

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sentinelhq/sentinel/policy"
)

// A file request for a path the sandbox does not show is denied without
// asking anyone, with a reason that says approving cannot help; a path it
// shows is asked as before, and a policy deny keeps its own reason.
func TestAPathTheSandboxHidesIsNotOffered(t *testing.T) {
	var asked atomic.Int32
	decider := DeciderFunc(func(ctx context.Context, p *Prompt) Decision {
		asked.Add(1)
		return Decision{Outcome: OutcomeAllow, By: "person", Reason: "test"}
	})
	r := startBroker(t, BrokerConfig{Decider: decider, Policy: policy.Default(),
		Sees: func(p string, write bool) bool { return !strings.Contains(p, "/hidden-home/") }})
	hidden := "/hidden-home/u/.bashrc"
	d := ask(t, r.socket, Request{Kind: policy.KindRead, Path: hidden, Tool: "Read", Adapter: "claude"})
	if d.Allowed() || d.By != "sandbox" || !strings.Contains(d.Reason, "approving cannot give access") || !strings.Contains(d.Message, hidden) {
		t.Fatalf("hidden read: %+v", d)
	}
	if asked.Load() != 0 {
		t.Fatal("the person was asked about a path approving cannot open")
	}
	if d := ask(t, r.socket, Request{Kind: policy.KindRead, Path: "/etc/hosts", Tool: "Read", Adapter: "claude"}); !d.Allowed() || asked.Load() != 1 {
		t.Fatalf("a path the sandbox shows was not asked: %+v (asked %d)", d, asked.Load())
	}
	cred := filepath.Join("/hidden-home/u", ".ssh", "id_rsa")
	r2 := startBroker(t, BrokerConfig{Decider: decider, Policy: policy.Default(),
		Context: policy.Context{Workspace: t.TempDir(), Home: "/hidden-home/u"},
		Sees:    func(string, bool) bool { return false }})
	if d := ask(t, r2.socket, Request{Kind: policy.KindRead, Path: cred, Tool: "Read"}); d.Allowed() || d.By == "sandbox" {
		t.Fatalf("a credential read lost the policy's own deny: %+v", d)
	}
}

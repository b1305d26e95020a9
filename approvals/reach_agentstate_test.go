package approvals

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sentinelhq/sentinel/policy"
	"github.com/sentinelhq/sentinel/sandbox"
)

// In place, the agent's own file tools cannot write its state (Claude
// Code's Write/Edit/MultiEdit/NotebookEdit, Codex's apply_patch into its
// transcripts or sessions), named directly or through a symlink the coder
// made in the workspace. The policy already denies both (a write outside
// the workspace, symlinks followed, which no rule of the person's turns
// into an allow), and nobody is asked. Where the policy would let such a
// write through (a context that lists the state dir as writable, as the
// sandbox does), the sandbox's profile says it is out of reach: denied at
// once, with a reason that says approving cannot help. Seen failing
// without the agent state in Profile.Sees' write list: with the state
// writable to the policy, every write was allowed.
func TestAWriteIntoTheAgentStateIsNotOffered(t *testing.T) {
	var asked atomic.Int32
	decider := DeciderFunc(func(ctx context.Context, p *Prompt) Decision {
		asked.Add(1)
		return Decision{Outcome: OutcomeAllow, By: "person", Reason: "test"}
	})
	ws := t.TempDir()
	state := filepath.Join(t.TempDir(), "r1.agent")
	prof := sandbox.Profile{Workspace: ws, Writable: []string{state}, AgentState: []string{state}}
	r := startBroker(t, BrokerConfig{Decider: decider, Policy: policy.Default(),
		Context: policy.Context{Workspace: ws, Cwd: ws, Sandboxed: true, InPlace: true}, Sees: prof.Sees})
	if err := os.MkdirAll(filepath.Join(state, "projects", "-w"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(state, "projects"), filepath.Join(ws, "link")); err != nil {
		t.Fatal(err)
	}
	transcript := filepath.Join(state, "projects", "-w", "s1.jsonl")
	for _, req := range []Request{
		{Kind: policy.KindWrite, Path: transcript, Tool: "Write", Adapter: "claude"},
		{Kind: policy.KindEdit, Path: transcript, Tool: "MultiEdit", Adapter: "claude"},
		{Kind: policy.KindEdit, Path: filepath.Join(state, "sessions", "rollout-x.jsonl"), Tool: "apply_patch", Adapter: "codex"},
	} {
		if d := ask(t, r.socket, req); d.Allowed() {
			t.Errorf("%s of %s: %+v", req.Tool, req.Path, d)
		}
	}
	linked := filepath.Join(ws, "link", "-w", "s1.jsonl")
	for _, req := range []Request{
		{Kind: policy.KindWrite, Path: linked, Tool: "Write", Adapter: "claude"},
		{Kind: policy.KindEdit, Path: "link/-w/rollout-x.jsonl", Tool: "apply_patch", Adapter: "codex"},
	} {
		if d := ask(t, r.socket, req); d.Allowed() {
			t.Errorf("%s of %s: %+v", req.Tool, req.Path, d)
		}
	}
	r = startBroker(t, BrokerConfig{Decider: decider, Policy: policy.Default(),
		Context: policy.Context{Workspace: ws, Cwd: ws, Sandboxed: true, InPlace: true, Writable: []string{state}}, Sees: prof.Sees})
	for _, req := range []Request{
		{Kind: policy.KindWrite, Path: transcript, Tool: "Write", Adapter: "claude"},
		{Kind: policy.KindWrite, Path: linked, Tool: "Write", Adapter: "claude"},
		{Kind: policy.KindEdit, Path: linked, Tool: "Edit", Adapter: "claude"},
		{Kind: policy.KindEdit, Path: "link/-w/rollout-x.jsonl", Tool: "apply_patch", Adapter: "codex"},
		{Kind: policy.KindEdit, Path: filepath.Join(ws, "link", "-w", "n.ipynb"), Tool: "NotebookEdit", Adapter: "claude"},
	} {
		d := ask(t, r.socket, req)
		if d.Allowed() || d.By != "sandbox" || !strings.Contains(d.Reason, "approving cannot make it writable") {
			t.Errorf("%s of %s: %+v", req.Tool, req.Path, d)
		}
	}
	if asked.Load() != 0 {
		t.Fatalf("the person was asked %d time(s) about a write into the agent's state", asked.Load())
	}
	if d := ask(t, r.socket, Request{Kind: policy.KindWrite, Path: filepath.Join(ws, "main.go"), Tool: "Write", Adapter: "claude"}); !d.Allowed() {
		t.Errorf("a write in the workspace: %+v", d)
	}
}

package approvals

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/sentinelhq/sentinel/policy"
)

// BeforeAllow hears every allowed request before its answer goes back (an
// in-place run checkpoints the place there), never a denied one, and a
// panic in it leaves the answer standing.
func TestBeforeAllowHearsAllowedCallsOnly(t *testing.T) {
	dir := t.TempDir()
	var mu sync.Mutex
	var heard []string
	b, err := NewBroker(BrokerConfig{SocketPath: filepath.Join(dir, "b.sock"), RunID: "r-test",
		Decider: allowAll("person"), Context: policy.Context{Workspace: dir, Cwd: dir},
		BeforeAllow: func(r Request) {
			mu.Lock()
			heard = append(heard, r.Command)
			mu.Unlock()
			if r.Command == "echo panic" {
				panic("boom")
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()
	if d := b.Decide(ctx, Request{Kind: policy.KindShell, Command: unknownShell}); !d.Allowed() {
		t.Fatalf("allowed by the person: %+v", d)
	}
	if d := b.Decide(ctx, Request{Kind: policy.KindShell, Command: "rm -rf /"}); d.Allowed() {
		t.Fatalf("rm -rf / allowed: %+v", d)
	}
	if d := b.Decide(ctx, Request{Kind: policy.KindShell, Command: "echo panic"}); !d.Allowed() {
		t.Errorf("a panic in BeforeAllow changed the answer: %+v", d)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(heard) != 2 || heard[0] != unknownShell || heard[1] != "echo panic" {
		t.Errorf("BeforeAllow heard %q, want the two allowed calls", heard)
	}
}

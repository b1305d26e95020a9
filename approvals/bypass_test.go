package approvals

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/policy"
)

// A Codex hook killed while its card waits lets Codex run the call: the
// tool result that follows, for a call Sentinel never allowed, is reported
// as a bypass (and journaled). An allowed call's result, an unknown call's,
// and Claude Code's (which asks the person itself when its hook fails) are
// not.
func TestBrokerReportsAToolCallThatRanWithoutItsAllow(t *testing.T) {
	var mu sync.Mutex
	var got []Bypass
	waiting := make(chan struct{}, 4)
	r := startBroker(t, BrokerConfig{
		Decider: DeciderFunc(func(ctx context.Context, p *Prompt) Decision {
			if p.Request.ToolCallID == "call-ok" {
				return Decision{Outcome: OutcomeAllow, By: "person", Reason: "test"}
			}
			waiting <- struct{}{}
			<-ctx.Done() // the person has not answered yet
			return Decision{Outcome: OutcomeDeny, By: "timeout"}
		}),
		OnBypass: func(b Bypass) { mu.Lock(); got = append(got, b); mu.Unlock() },
	})
	killedHook := func(adapter, id string) {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			AskOnce(ctx, r.socket, Request{Kind: policy.KindShell, Command: unknownShell, Adapter: adapter, ToolCallID: id})
		}()
		<-waiting
		cancel() // the hook is gone; the broker withdraws its request
		<-done
	}
	report := func(adapter, id string) {
		c, err := Dial(r.socket)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if err := c.Report(context.Background(), Report{Lane: string(journal.Tool), Kind: coderstream.ToolResult,
			Text: "Bash: " + unknownShell, Tool: "Bash", ToolCallID: id, Adapter: adapter}); err != nil {
			t.Fatal(err)
		}
	}
	if d := ask(t, r.socket, Request{Kind: policy.KindShell, Command: unknownShell, Adapter: "codex", ToolCallID: "call-ok"}); !d.Allowed() {
		t.Fatalf("the allowed call: %+v", d)
	}
	report("codex", "call-ok")
	report("codex", "call-never-asked")
	killedHook("claude", "call-claude")
	report("claude", "call-claude")
	killedHook("codex", "call-killed")
	report("codex", "call-killed")

	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 || got[0].ToolCallID != "call-killed" || got[0].Adapter != "codex" || got[0].Decision == "" {
		t.Fatalf("bypasses = %+v, want only call-killed", got)
	}
	var journaled bool
	for _, ev := range r.events(t) {
		if ev.Lane == journal.System && ev.Kind == KindGateBypassed {
			journaled = true
		}
	}
	if !journaled {
		t.Error("the bypass is not in the journal")
	}
}

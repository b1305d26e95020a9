package approvals

import (
	"context"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/poll"
	"github.com/sentinelhq/sentinel/policy"
)

// bypassRun is a broker whose person never answers (except call "call-ok",
// allowed at once), with the bypasses it reports.
type bypassRun struct {
	*testRun
	t       *testing.T
	waiting chan struct{}
	mu      sync.Mutex
	got     []Bypass
}

func startBypassRun(t *testing.T, hookOnly bool) *bypassRun {
	b := &bypassRun{t: t, waiting: make(chan struct{}, 4)}
	b.testRun = startBroker(t, BrokerConfig{
		HookOnlyGate: hookOnly,
		Decider: DeciderFunc(func(ctx context.Context, p *Prompt) Decision {
			if p.Request.ToolCallID == "call-ok" {
				return Decision{Outcome: OutcomeAllow, By: "person", Reason: "test"}
			}
			b.waiting <- struct{}{}
			<-ctx.Done() // the person has not answered yet
			return Decision{Outcome: OutcomeDeny, By: "timeout"}
		}),
		OnBypass: func(bp Bypass) { b.mu.Lock(); b.got = append(b.got, bp); b.mu.Unlock() },
	})
	return b
}

// killedHook asks for call id and ends the hook while its card waits.
func (b *bypassRun) killedHook(id string) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		AskOnce(ctx, b.socket, Request{Kind: policy.KindShell, Command: unknownShell, Adapter: "codex", ToolCallID: id})
	}()
	<-b.waiting
	cancel() // the hook is gone; the broker withdraws its request
	<-done
}

// ran reports the tool result of call id, as the agent's next hook does.
func (b *bypassRun) ran(id string) {
	c, err := Dial(b.socket)
	if err != nil {
		b.t.Fatal(err)
	}
	defer c.Close()
	if err := c.Report(context.Background(), Report{Lane: string(journal.Tool), Kind: coderstream.ToolResult,
		Text: "Bash: " + unknownShell, Tool: "Bash", ToolCallID: id, Adapter: "codex"}); err != nil {
		b.t.Fatal(err)
	}
}

// bypasses waits up to wait for n bypasses and gives what it got.
func (b *bypassRun) bypasses(n int, wait time.Duration) []Bypass {
	var got []Bypass
	poll.Until(wait, func() bool {
		b.mu.Lock()
		got = append([]Bypass(nil), b.got...)
		b.mu.Unlock()
		return len(got) >= n
	})
	return got
}

// In a run whose hook is the only gate (Codex in place), a hook killed
// while its card waits lets the agent run the call: the tool result that
// follows, for a call Sentinel never allowed, is reported as a bypass and
// journaled. An allowed call's result and an unknown call's are not.
func TestBrokerReportsAToolCallThatRanWithoutItsAllow(t *testing.T) {
	r := startBypassRun(t, true)
	if d := ask(t, r.socket, Request{Kind: policy.KindShell, Command: unknownShell, Adapter: "codex", ToolCallID: "call-ok"}); !d.Allowed() {
		t.Fatalf("the allowed call: %+v", d)
	}
	r.ran("call-ok")
	r.ran("call-never-asked")
	r.killedHook("call-killed")
	r.ran("call-killed")
	got := r.bypasses(1, 10*time.Second)
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

// In a run whose agent does not take a failed hook for a go-ahead (Claude
// Code asks the person itself), the same sequence — whatever adapter name
// the socket's messages carry — is no bypass.
func TestBrokerWatchesForBypassesOnlyWhereTheHookIsTheOnlyGate(t *testing.T) {
	r := startBypassRun(t, false)
	r.killedHook("call-killed")
	r.ran("call-killed")
	// The report's answer came back: it was handled; a bypass would have
	// been reported before it, so there is nothing to wait for.
	if got := r.bypasses(0, 0); len(got) != 0 {
		t.Fatalf("bypasses = %+v, want none", got)
	}
}

// A tool call id is the coder's word, as long as a protocol line: however
// long the ids it is sent, the ledger's memory stays bounded, and it still
// tells a call it did not allow.
func TestCallLedgerMemoryIsBoundedWhateverTheIDs(t *testing.T) {
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	l := &callLedger{on: true}
	before := heap()
	for i := range ledgerSize {
		l.asked(Request{ToolCallID: strings.Repeat("x", 16<<10) + strconv.Itoa(i)}) // 64 MiB of ids in all
	}
	if grew := int64(heap()) - int64(before); grew > 16<<20 {
		t.Fatalf("the ledger holds %d MiB after %d long ids", grew>>20, ledgerSize)
	}
	id := strings.Repeat("x", 16<<10) + "7"
	if b, ok := l.passedBy(Report{Kind: coderstream.ToolResult, ToolCallID: id}); !ok || b.Decision != "no answer yet" {
		t.Fatalf("passedBy(%d-byte id) = %+v, %v; want the call that had no answer", len(id), b, ok)
	}
	runtime.KeepAlive(l)
}

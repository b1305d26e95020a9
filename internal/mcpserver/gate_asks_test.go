//go:build unix

package mcpserver

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/poll"
	"github.com/sentinelhq/sentinel/policy"
)

// heldPerson is a person who answers no ask until released, counting the
// asks that reach them.
type heldPerson struct {
	mu      sync.Mutex
	waiting int
	release chan struct{}
}

func (p *heldPerson) Ask(ctx context.Context, _ approvals.Request, _ policy.Verdict) (bool, string, error) {
	p.mu.Lock()
	p.waiting++
	p.mu.Unlock()
	select {
	case <-p.release:
	case <-ctx.Done():
	}
	return false, "no", nil
}

func (p *heldPerson) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.waiting
}

// A client cannot flood the person's console queue: with maxAsksWaiting
// asks of one server waiting, the next exec the policy asks about is
// refused at once (class limit) and never reaches the person. Before, a
// client that sent 300 exec calls without waiting put 300 cards in the
// queue, ahead of every run's.
func TestAClientCannotFloodThePersonWithAsks(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	person := &heldPerson{release: make(chan struct{})}
	cs, _ := session(t, mustConfig(t, f.config(`exec_mode = "policy"`)), Options{Person: person})
	ask := func(i int) <-chan *mcp.CallToolResult {
		ch := make(chan *mcp.CallToolResult, 1)
		go func() {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "exec", Arguments: map[string]any{"command": "curl https://example.com/" + strings.Repeat("x", i), "cwd": f.rw}})
			if err != nil {
				res = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}
			}
			ch <- res
		}()
		return ch
	}
	var held []<-chan *mcp.CallToolResult
	for i := range maxAsksWaiting {
		held = append(held, ask(i))
	}
	poll.Must(t, 5*time.Minute, "the first asks to reach the person", func() bool { return person.count() == maxAsksWaiting })
	// Three more: each is refused at once, or (without the bound) reaches
	// the person too; either is seen without a clock.
	var extra []<-chan *mcp.CallToolResult
	for i := range 3 {
		extra = append(extra, ask(maxAsksWaiting+i))
	}
	answered := func() int {
		n := 0
		for _, ch := range extra {
			if len(ch) > 0 {
				n++
			}
		}
		return n
	}
	poll.Must(t, 5*time.Minute, "the asks past the bound to be refused or to reach the person", func() bool {
		return answered()+person.count()-maxAsksWaiting >= len(extra)
	})
	if n := person.count(); n != maxAsksWaiting {
		t.Errorf("%d asks reached the person, want %d", n, maxAsksWaiting)
	}
	close(person.release)
	for _, ch := range extra {
		if res := <-ch; !res.IsError || !strings.Contains(blocks(res)[0], "[limit]") {
			t.Errorf("an ask past the bound: want refused [limit], got %q", blocks(res))
		}
	}
	for _, ch := range held {
		if res := <-ch; !res.IsError || !strings.Contains(blocks(res)[0], "policy-deny") {
			t.Errorf("an ask the person answered no: %q", blocks(res))
		}
	}
	// Answered, the places are free again.
	if res := <-ask(99); !res.IsError || !strings.Contains(blocks(res)[0], "policy-deny") {
		t.Errorf("an ask after the answers: %q", blocks(res))
	}
}

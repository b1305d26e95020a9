package approvals

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/policy"
)

// TestAFloodOfRequestsIsCapped: a coder sends 20,000 requests that all need
// a person, at once, on one connection. At most MaxPending ever wait for
// the person; the rest are denied at once and journaled as a first request
// and a count; once the person clears the flood, a real request still
// reaches them.
func TestAFloodOfRequestsIsCapped(t *testing.T) {
	const flood = 20000
	var mu sync.Mutex
	waiting, most := 0, 0
	var asked []string
	clear := make(chan struct{})
	decider := DeciderFunc(func(ctx context.Context, p *Prompt) Decision {
		mu.Lock()
		waiting++
		most = max(most, waiting)
		asked = append(asked, p.Request.Command)
		mu.Unlock()
		defer func() { mu.Lock(); waiting--; mu.Unlock() }()
		select {
		case <-clear:
		case <-ctx.Done():
		}
		return Decision{Outcome: OutcomeDeny, By: "person", Reason: "flood"}
	})
	r := startBroker(t, BrokerConfig{Decider: decider})

	c, err := net.Dial("unix", r.socket)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	go func() {
		w := bufio.NewWriter(c)
		for i := 0; i < flood; i++ {
			line, _ := json.Marshal(message{V: ProtocolVersion, Type: msgRequest, ID: "f",
				Request: &Request{Kind: policy.KindShell, Command: unknownShell + " flood"}})
			w.Write(append(line, '\n'))
		}
		w.Flush()
	}()
	c.SetReadDeadline(time.Now().Add(2 * time.Minute)) // a bound on a hang, not a speed check
	sc := bufio.NewScanner(c)
	limited := 0
	for limited < flood-MaxPending && sc.Scan() {
		var m message
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil || m.Decision == nil {
			t.Fatalf("bad answer %s", sc.Bytes())
		}
		if m.Decision.By != "limit" || !strings.Contains(m.Decision.Reason, "too many pending requests: 64 waiting") {
			t.Fatalf("a flooded request was answered %+v; want denied for too many pending", m.Decision)
		}
		limited++
	}
	if limited != flood-MaxPending {
		t.Fatalf("only %d overflow denials: %v", limited, sc.Err())
	}
	mu.Lock()
	if most != MaxPending || len(asked) != MaxPending {
		t.Errorf("%d requests waited for the person at once (%d asked); want at most %d", most, len(asked), MaxPending)
	}
	mu.Unlock()

	close(clear) // the person denies what waits
	for i := 0; i < MaxPending && sc.Scan(); i++ {
	}
	d := ask(t, r.socket, Request{Kind: policy.KindShell, Command: "git push origin main"})
	mu.Lock()
	last := asked[len(asked)-1]
	mu.Unlock()
	if last != "git push origin main" || d.By != "person" {
		t.Errorf("after the flood the real request was not put to the person: asked %q, decided %+v", last, d)
	}

	evs := r.events(t)
	if len(evs) > 3*MaxPending+20 {
		t.Errorf("the flood took %d journal lines; want its overflow coalesced", len(evs))
	}
	var more string
	for _, ev := range evs {
		if ev.Lane == journal.System && ev.Kind == "request-flood-end" {
			more = ev.Text
		}
	}
	if !strings.Contains(more, "denied 19935 more request(s)") {
		t.Errorf("the journal does not count the flood's overflow: %q", more)
	}
}

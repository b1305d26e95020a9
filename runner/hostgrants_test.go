package runner

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
)

func TestAToolCallsApprovedHostLetsTheProxyThroughBriefly(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	events := make(chan journal.Event, 8)
	g := &hostGrants{until: map[string]time.Time{}, reqs: map[string]string{}, now: func() time.Time { return now }, events: events}
	send := func(kind journal.Kind, v any) {
		b, _ := json.Marshal(v)
		events <- journal.Event{Lane: journal.Approval, Kind: kind, Data: b}
	}
	send("request", map[string]any{"id": "r1", "kind": "net", "adapter": "claude", "url": "https://docs.example.com/page"})
	send("decision", map[string]any{"request_id": "r1", "decision": "allow"})
	send("request", map[string]any{"id": "r2", "kind": "net", "adapter": "claude", "host": "evil.example", "port": 443})
	send("decision", map[string]any{"request_id": "r2", "decision": "deny"})
	send("request", map[string]any{"id": "r3", "kind": "net", "adapter": "proxy", "host": "self.example", "port": 443})
	send("decision", map[string]any{"request_id": "r3", "decision": "allow"})
	close(events)
	g.follow()
	if !g.allowed("docs.example.com", 443) || !g.allowed("DOCS.example.com", 443) {
		t.Fatal("an approved fetch's host is not let through")
	}
	if g.allowed("docs.example.com", 80) || g.allowed("evil.example", 443) || g.allowed("self.example", 443) {
		t.Fatal("a host that was not approved for a tool call is let through")
	}
	now = now.Add(hostGrantTTL + time.Second)
	if g.allowed("docs.example.com", 443) {
		t.Fatal("the grant did not expire")
	}
}

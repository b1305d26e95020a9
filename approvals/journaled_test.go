package approvals

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/policy"
)

// The broker's own journal reads back as requests paired with their
// decisions, in the order asked.
func TestReadJournaledPairsTheBrokersEvents(t *testing.T) {
	r := startBroker(t, BrokerConfig{Decider: allowAll("person")})
	ask(t, r.socket, Request{Kind: policy.KindShell, Command: unknownShell})
	ask(t, r.socket, Request{Kind: policy.KindShell, Command: "sudo rm -rf /"})
	js, err := ReadJournaled(r.events(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(js) != 2 {
		t.Fatalf("got %d, want 2: %+v", len(js), js)
	}
	if js[0].Request.Command != unknownShell || !js[0].Decided || !js[0].Decision.Allowed() || js[0].Decision.By != "person" ||
		js[0].Decision.RequestID != js[0].Request.ID || js[0].Asked.IsZero() || js[0].DecidedAt.Before(js[0].Asked) {
		t.Errorf("first = %+v", js[0])
	}
	if js[1].Request.Command != "sudo rm -rf /" || !js[1].Decided || js[1].Decision.Allowed() || !strings.HasPrefix(js[1].Decision.By, "policy:") {
		t.Errorf("second = %+v", js[1])
	}
}

func TestReadJournaledUndecidedAloneAndBroken(t *testing.T) {
	ev := func(kind journal.Kind, data any) journal.Event {
		b, _ := json.Marshal(data)
		return journal.Event{Lane: journal.Approval, Kind: kind, Data: b}
	}
	evs := []journal.Event{
		ev("request", Request{ID: "r1", Kind: policy.KindShell, Command: "make"}),
		ev("decision", Decision{RequestID: "r9", Outcome: OutcomeDeny, By: "timeout"}),
		{Lane: journal.Approval, Kind: "decision", Data: []byte(`{"decision": 7}`)},
		{Lane: journal.Tool, Kind: "request", Data: []byte(`not json`)}, // another lane: not the broker's
	}
	js, err := ReadJournaled(evs)
	if err == nil || !strings.Contains(err.Error(), "journaled decision") {
		t.Errorf("err = %v, want the broken decision named", err)
	}
	if len(js) != 2 || js[0].Decided || js[0].Request.ID != "r1" || !js[1].Decided || js[1].Request.ID != "" || js[1].Decision.By != "timeout" {
		t.Fatalf("got %+v", js)
	}
}

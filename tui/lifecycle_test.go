package tui

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/runner/claude"
	"github.com/sentinelhq/sentinel/runner/codex"
	"github.com/sentinelhq/sentinel/tui/plain"
)

// lifecycleEvents are the agents' lifecycle chatter as their adapters
// journal it (Claude Code's task_started, hook_started and status lines,
// Codex's turn start), then one system line that must stay shown.
func lifecycleEvents(t *testing.T) []journal.Event {
	t.Helper()
	var evs []journal.Event
	add := func(lane journal.Lane, kind journal.Kind, text string) {
		evs = append(evs, journal.Event{Time: t0, Lane: lane, Kind: kind, Text: text})
	}
	for _, raw := range []string{
		`{"type":"system","subtype":"task_started","task_id":"t1"}`,
		`{"type":"system","subtype":"hook_started","hook_name":"PreToolUse"}`,
		`{"type":"system","subtype":"status","status":"compacting"}`,
		`{"type":"system","subtype":"brand_new_kind"}`,
	} {
		for _, l := range claude.DecodeLine([]byte(raw)) {
			add(l.Lane, l.Kind, l.Text)
		}
	}
	for _, l := range codex.DecodeNotification("turn/started", json.RawMessage(`{"turn":{"id":"u1"}}`)) {
		add(l.Lane, l.Kind, l.Text)
	}
	if len(evs) != 5 {
		t.Fatalf("decoded %d events, want 5", len(evs))
	}
	return evs
}

// TestLifecycleChatterStaysOutOfTheLanes: the agents' lifecycle lines are
// journaled but neither the TUI's lanes nor --plain show them; a system
// line of a kind the adapter does not know stays shown.
func TestLifecycleChatterStaysOutOfTheLanes(t *testing.T) {
	evs := lifecycleEvents(t)
	hidden := []string{"task_started", "hook_started", "claude: status", "codex turn started"}

	h := newThemedHarness(t, "nocolor", 120, 40)
	h.send(eventsMsg(evs))
	var all strings.Builder
	for _, p := range h.m.panes {
		for i := 0; i < p.count(); i++ {
			all.WriteString(p.lineAt(i).text + "\n")
		}
	}
	for _, s := range hidden {
		if strings.Contains(all.String(), s) {
			t.Errorf("a lane shows the lifecycle line %q:\n%s", s, all.String())
		}
	}
	if !strings.Contains(all.String(), "claude: brand_new_kind") {
		t.Errorf("an unknown system line is hidden too:\n%s", all.String())
	}

	var out bytes.Buffer
	p := plain.NewPrinter(&out, nil)
	for _, ev := range evs {
		p.Print(ev)
	}
	p.Flush()
	for _, s := range hidden {
		if strings.Contains(out.String(), s) {
			t.Errorf("--plain shows the lifecycle line %q:\n%s", s, out.String())
		}
	}
	if !strings.Contains(out.String(), "claude: brand_new_kind") {
		t.Errorf("--plain hides an unknown system line:\n%s", out.String())
	}
}

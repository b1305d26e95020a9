package tui

import (
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// The tool lane marks a failed call from its data, for every shape a
// finished call takes (a coder's report, an adapter's result, an ACP or
// demo "result"); one that went well is not marked.
func TestToolLaneMarksFailedCalls(t *testing.T) {
	tests := []struct {
		ev   journal.Event
		want string
	}{
		{journal.Event{Lane: journal.Tool, Kind: "tool-result", Text: "Bash: make → exit 2", Data: []byte(`{"reported_by":"coder","exit_code":2}`)},
			"coder reports: ✗ failed: Bash: make → exit 2"},
		{journal.Event{Lane: journal.Tool, Kind: "tool-result", Text: "error: Exit code 1", Data: []byte(`{"failed":true}`)},
			"✗ failed: error: Exit code 1"},
		{journal.Event{Lane: journal.Tool, Kind: "result", Text: "failed", Data: []byte(`{"failed":true,"output":"boom"}`)},
			"  → ✗ failed: failed\n    boom"},
		{journal.Event{Lane: journal.Tool, Kind: "tool-result", Text: "true → exit 0", Data: []byte(`{"failed":false,"exit_code":0}`)},
			"true → exit 0"},
	}
	for _, tc := range tests {
		if got := strings.Join(toolLines(tc.ev), "\n"); got != tc.want {
			t.Errorf("tool lane shows %q, want %q", got, tc.want)
		}
	}
}

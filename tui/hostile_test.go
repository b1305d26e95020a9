package tui

import (
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// A report the coder sent over the broker shows as the coder's word, with
// its hidden characters spelled out.
func TestLanesMarkAndSpellOutCoderReports(t *testing.T) {
	ev := journal.Event{Lane: journal.Tool, Kind: "tool-result", Text: "ok\x1b]52;c;eA==\x07\r\u202e",
		Data: []byte(`{"reported_by":"coder"}`)}
	got := strings.Join(toolLines(ev), "\n")
	if got != "coder reports: ok<U+001B>]52;c;eA==<U+0007><U+000D><U+202E>" {
		t.Fatalf("tool lane shows %q", got)
	}
	if got := eventText(journal.Event{Lane: journal.Coder, Kind: "notification", Text: "hi", Data: []byte(`{"reported_by":"coder"}`)}); got != "coder reports: hi" {
		t.Fatalf("coder lane shows %q", got)
	}
}

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

// The coder pane draws the coder's screen, never its terminal requests: no
// hyperlink (whose target may differ from its text), clipboard write or
// title change reaches the real terminal.
func TestCoderPaneDrawsNoLinksOrTerminalRequests(t *testing.T) {
	ct := newCoderTerm(60, 3, func([]byte) {}, "")
	defer ct.close()
	ct.write("\x1b]8;;file:///etc/passwd\x1b\\https://ok.example\x1b]8;;\x1b\\ \x1b]52;c;ZXZpbA==\x07\x1b]0;title\x07a\u200bb\u202ec\r\n\x1b[31mred\x1b[0m", 0)
	ct.flush()
	lines := ct.lines()
	all := strings.Join(lines, "\n")
	for _, bad := range []string{"\x1b]", "\x07", "passwd", "ZXZpbA", "title", "\u200b", "\u202e"} {
		if strings.Contains(all, bad) {
			t.Errorf("the coder pane re-emits %q: %q", bad, all)
		}
	}
	if !strings.HasPrefix(lines[0], "https://ok.example abc") || !strings.Contains(lines[1], "\x1b[31mred") || len(lines) != 3 {
		t.Fatalf("the coder pane lost the screen: %q", lines)
	}
}

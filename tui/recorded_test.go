package tui

import (
	"os"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// recordedClaude is Claude Code 2.1.332's own terminal output from one
// interactive run under Sentinel (against the tests' scripted model): the
// banner, the prompt, a tool call and the spinner's redraws.
func recordedClaude(t testing.TB) string {
	b, err := os.ReadFile("testdata/claude-code-2.1.332.pty")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Claude Code's real output draws in the coder pane as it drew on its
// terminal, whatever the chunking.
func TestRecordedClaudeCodeOutputRenders(t *testing.T) {
	rec := recordedClaude(t)
	for _, size := range []int{len(rec), 4096, 7} {
		info := testInfo()
		info.FullScreenCoder = true
		h := newHarness(t, info, "dark", 120, 40)
		h.press("z")
		var evs []journal.Event
		for i := 0; i < len(rec); i += size {
			evs = append(evs, ev(int64(len(evs)+1), journal.Coder, "output", rec[i:min(i+size, len(rec))], nil))
		}
		h.send(eventsMsg(evs))
		s := h.screen()
		for _, want := range []string{"Claude Code", "v2.1.332", "Generate the land file.", "./scripts/gen.sh land"} {
			contains(t, s, want)
		}
		for _, bad := range []string{"[38;5;", "1049h", "\x1b"} {
			notContains(t, s, bad)
		}
	}
}

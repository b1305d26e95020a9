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

// recordedCodex is Codex 0.171.0's own terminal output from one interactive
// run in a 120×40 pty against internal/fakeresponses (a reply, a shell call
// to ./gen.sh, a closing reply), answered by this package's emulator: the
// banner, the task, the call and its output, the answer and the composer.
// The line codex printed to stderr before its screen (about helper binaries
// under /tmp) is cut.
func recordedCodex(t testing.TB) string {
	b, err := os.ReadFile("testdata/codex-0.171.0.pty")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Claude Code's and Codex's real output draw in the coder pane as they drew
// on their terminals, whatever the chunking. (They were recorded at 120×40,
// taller than the pane: their last rows are not compared.)
func TestRecordedCoderOutputRenders(t *testing.T) {
	for _, c := range []struct {
		rec  string
		want []string
	}{
		{recordedClaude(t), []string{"Claude Code", "v2.1.332", "Generate the land file.", "./scripts/gen.sh land"}},
		{recordedCodex(t), []string{"OpenAI Codex", "(v0.171.0)", "› Generate the land file.", "Ran sh ./gen.sh land",
			"land row 12: ~~~~~~~~", "Done: land.txt now holds the generated land, 12 lines."}},
	} {
		renders(t, c.rec, c.want)
	}
}

func renders(t *testing.T, rec string, want []string) {
	t.Helper()
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
		for _, w := range want {
			contains(t, s, w)
		}
		for _, bad := range []string{"[38;5;", "1049h", "\x1b"} {
			notContains(t, s, bad)
		}
	}
}

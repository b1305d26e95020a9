package tmux

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// binaryWriteScenario writes a CI workflow whose content is binary (it
// holds NUL bytes): no card can show it as text.
func binaryWriteScenario() string {
	var b strings.Builder
	b.WriteString("\x7fELF\x02\x01\x01\x00")
	for i := 0; i < 200; i++ {
		b.WriteByte(byte(i % 128))
	}
	var q strings.Builder // a TOML basic string: every byte not printable ASCII escaped
	for _, c := range []byte(b.String()) {
		switch {
		case c == '"' || c == '\\':
			q.WriteString(`\` + string(c))
		case c < 0x20 || c >= 0x7f:
			fmt.Fprintf(&q, `\u%04x`, c)
		default:
			q.WriteByte(c)
		}
	}
	return fmt.Sprintf("name = \"binary\"\n\n[[steps]]\nwrite = \".github/workflows/tool.yml\"\ncontent = \"%s\"\n\n[[steps]]\ndone = \"wrote it\"\n", q.String())
}

// TestUnshownWriteIsApprovableOnceItsSummaryIsSeen: a write whose content
// is binary, under tmux with the real binary at 80×24. The card shows a
// summary in its place — why it is not shown, its size and sha256, a
// hexdump of its head — and 1 approves nothing until all of the summary
// has been on screen; then it does. In --plain the card prints the same
// summary, and 1 approves.
func TestUnshownWriteIsApprovableOnceItsSummaryIsSeen(t *testing.T) {
	t.Parallel()
	start := func(t *testing.T, args ...string) *e2etest.Tmux {
		dir := e2etest.ScratchRepo(t)
		scenario := filepath.Join(t.TempDir(), "binary.toml")
		e2etest.WriteFile(t, scenario, binaryWriteScenario())
		env := []string{"XDG_CONFIG_HOME=" + t.TempDir(), "XDG_STATE_HOME=" + t.TempDir()}
		return e2etest.StartSentinelSized(t, 80, 24, dir, env, append(append([]string{"run"}, args...),
			"--apply", "none", "--coder", "demo", "--scenario", scenario, "Write the tool.")...)
	}
	t.Run("console card", func(t *testing.T) {
		t.Parallel()
		tm := start(t)
		s := tm.WaitArmed("the binary write's card", e2etest.Has("not shown in full", "path     .github/workflows/tool.yml"))
		t.Logf("the card:\n%s", s)
		for _, want := range []string{"binary (it holds NUL bytes)", "size: 208 bytes", "sha256: ", "00000000  7f 45 4c 46 02 01 01 00  |.ELF....|"} {
			if !strings.Contains(s, want) {
				t.Errorf("the card does not show %q", want)
			}
		}
		first := cardRowsEnd.FindStringSubmatch(s)
		if first == nil || first[1] == first[2] {
			t.Fatalf("at 80x24 the summary should not fit the card at once:\n%s", s)
		}
		tm.Keys("1")
		s = tm.WaitFor("approve refused", e2etest.Has("approve waits"))
		if !strings.Contains(s, "path     .github/workflows/tool.yml") {
			t.Fatalf("1 answered the card before its summary was all shown:\n%s", s)
		}
		scrollCardToEnd(tm)
		s = tm.Screen()
		if !strings.Contains(s, "more byte(s) not dumped") {
			t.Errorf("the end of the summary does not say what is not dumped:\n%s", s)
		}
		tm.PressUntil("1", "the card answered", func(s string) bool { return !strings.Contains(s, "path     .github/workflows/tool.yml") })
	})
	t.Run("plain", func(t *testing.T) {
		t.Parallel()
		tm := start(t, "--plain")
		tm.WaitFor("the card's prompt", e2etest.Has("(1 yes · 2 always · 3"))
		s := tm.Cmd("capture-pane", "-p", "-S", "-100", "-t", "e2e") // the card is taller than the window
		t.Logf("the card:\n%s", s)
		for _, want := range []string{"content (a summary: it is not shown as text)", "binary (it holds NUL bytes)", "sha256",
			"# 00000000  7f 45 4c 46 02 01 01 00  |.ELF....|", "more byte(s) not dumped"} {
			if !strings.Contains(s, want) {
				t.Errorf("the plain card does not show %q", want)
			}
		}
		tm.Keys("1", "Enter")
		tm.WaitFor("the write approved", e2etest.Has("allowed (person)"))
	})
}

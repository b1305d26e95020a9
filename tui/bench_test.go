package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// BenchmarkRenderFrame draws one full frame (120×40, all four lanes, a card
// open) with each lane holding the given history. The cost must not grow with
// history: only the visible window is drawn.
func BenchmarkRenderFrame(b *testing.B) {
	for _, n := range []int{1_000, 100_000, 1_000_000} {
		b.Run(fmt.Sprintf("history=%d", n), func(b *testing.B) {
			s := NewReplay(testInfo(), nil)
			r, m := newLive(s, Options{History: n}, func([]byte) {})
			defer m.close()
			r.update(teaSize(120, 40))
			for i := 0; i < n; i++ {
				m.addLine(paneCoder, line{tagCoder, "compiling package github.com/example/service/internal/handlers ..."})
				m.addLine(paneTool, line{tagTool, "$ go test ./internal/..."})
			}
			m.update(promptMsg{shellPrompt("npm run test", "npm", "run", "test")})
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				_ = m.render()
			}
		})
	}
}

// BenchmarkIngestLineCoder feeds a line coder's output in 4 KiB pty chunks,
// coloured like a real build log. Multiply MB/s out for 100 MB.
func BenchmarkIngestLineCoder(b *testing.B) {
	chunk := outputChunk()
	s := NewReplay(testInfo(), nil)
	r, m := newLive(s, Options{}, func([]byte) {})
	defer m.close()
	r.update(teaSize(120, 40))
	evs := eventsMsg{{Lane: journal.Coder, Kind: "output", Text: chunk}}
	b.SetBytes(int64(len(chunk)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.ingest(evs)
	}
}

// BenchmarkIngestFullScreenCoder feeds output through the terminal emulator,
// as for Claude Code or Codex, and waits for it to be parsed (on the
// emulator's goroutine, off the UI's): a test log scrolling the screen, and
// Claude Code's and Codex's own recorded output (redraws in place on their
// alternate screens).
func BenchmarkIngestFullScreenCoder(b *testing.B) {
	for _, in := range []struct{ name, out string }{
		{"test-log", outputChunk()},
		{"claude-code", recordedClaude(b)},
		{"codex", recordedCodex(b)},
	} {
		b.Run(in.name, func(b *testing.B) {
			info := testInfo()
			info.FullScreenCoder = true
			s := NewReplay(info, nil)
			r, m := newLive(s, Options{}, func([]byte) {})
			defer m.close()
			r.update(teaSize(120, 40))
			evs := eventsMsg{{Lane: journal.Coder, Kind: "output", Text: in.out}}
			b.SetBytes(int64(len(in.out)))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				m.ingest(evs)
				m.term.flush()
			}
		})
	}
}

func outputChunk() string {
	var sb strings.Builder
	for i := 0; sb.Len() < 4096-100; i++ {
		fmt.Fprintf(&sb, "\x1b[32mok\x1b[0m  \tgithub.com/example/service/pkg%03d\t0.%03ds\r\n", i, i)
	}
	return sb.String()
}

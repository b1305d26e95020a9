package tui

import (
	"io"
	"reflect"
	"testing"
	"unsafe"

	"github.com/charmbracelet/x/vt"
	"github.com/hinshun/vt10x"

	"github.com/sentinelhq/sentinel/tui/vterm"
)

// BenchmarkEmulator compares terminal emulators side by side on the coder
// pane's inputs (BenchmarkIngestFullScreenCoder's), 120×40, the emulator
// alone: no queue, no goroutine hand-off, no drawing. vterm is ours; x/vt
// is the one the pane used before it, vt10x an alternative measured
// against both (issue 21).
func BenchmarkEmulator(b *testing.B) {
	for _, in := range []struct{ name, out string }{
		{"test-log", outputChunk()},
		{"claude-code", recordedClaude(b)},
		{"codex", recordedCodex(b)},
	} {
		data := []byte(in.out)
		b.Run(in.name+"/vterm", func(b *testing.B) {
			term := vterm.New(120, 40)
			b.SetBytes(int64(len(data)))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				_, _ = term.Write(data)
				term.Replies()
			}
		})
		b.Run(in.name+"/x-vt", func(b *testing.B) {
			emu := vt.NewEmulator(120, 40)
			dropScrollback(emu)                             // as the pane did
			go func() { _, _ = io.Copy(io.Discard, emu) }() // replies must be read
			b.SetBytes(int64(len(data)))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				_, _ = emu.Write(data)
			}
		})
		b.Run(in.name+"/vt10x", func(b *testing.B) {
			term := vt10x.New(vt10x.WithSize(120, 40), vt10x.WithWriter(io.Discard))
			b.SetBytes(int64(len(data)))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				_, _ = term.Write(data)
			}
		})
	}
}

// dropScrollback turns off the scrollback of both of x/vt's screens, as the
// pane did when it used x/vt: its SetScrollbackSize reaches the main screen
// alone, and the alternate screen's 10,000 lines halved its speed. The
// screens are reached by reflection, checked against their type.
func dropScrollback(e *vt.Emulator) {
	scrs := reflect.ValueOf(e).Elem().FieldByName("scrs")
	if !scrs.IsValid() || scrs.Kind() != reflect.Array || scrs.Type().Elem() != reflect.TypeFor[vt.Screen]() {
		e.SetScrollbackSize(1) // 0 is ignored
		return
	}
	for i := range scrs.Len() {
		(*vt.Screen)(unsafe.Pointer(scrs.Index(i).UnsafeAddr())).SetScrollback(nil)
	}
}

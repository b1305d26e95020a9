package tui

import (
	"io"
	"strings"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/vt"
)

// coderTerm is the terminal emulator a full-screen coder draws into, and the
// one path by which bytes go back to the coder: the emulator's replies to
// terminal queries and, in attach mode only, the person's keys encoded the
// way the coder's terminal modes expect.
//
// Everything the emulator writes back is read by its own goroutine and passed
// to send; without that reader the emulator's Write blocks on the first query
// (see STYLE.md, x/vt pitfalls).
type coderTerm struct {
	emu  *vt.Emulator
	w, h int
	pipe *io.PipeWriter
	done chan struct{}
}

func newCoderTerm(w, h int, send func([]byte)) *coderTerm {
	w, h = max(w, 1), max(h, 1)
	t := &coderTerm{emu: vt.NewEmulator(w, h), w: w, h: h, done: make(chan struct{})}
	t.pipe, _ = t.emu.InputPipe().(*io.PipeWriter)
	go func() {
		defer close(t.done)
		buf := make([]byte, 4096)
		for {
			n, err := t.emu.Read(buf)
			if n > 0 {
				send(append([]byte(nil), buf[:n]...))
			}
			if err != nil {
				return
			}
		}
	}()
	return t
}

// write feeds coder output to the emulator.
func (t *coderTerm) write(s string) { _, _ = t.emu.WriteString(s) }

func (t *coderTerm) resize(w, h int) {
	w, h = max(w, 1), max(h, 1)
	if w == t.w && h == t.h {
		return
	}
	t.w, t.h = w, h
	t.emu.Resize(w, h)
}

// key encodes a key press for the coder and sends it through the reply path.
func (t *coderTerm) key(k tea.KeyPressMsg) {
	t.emu.SendKey(uv.KeyPressEvent(uv.Key(k)))
}

// paste sends pasted text, bracketed if the coder asked for that.
func (t *coderTerm) paste(s string) { t.emu.Paste(s) }

// lines returns the screen as h styled lines.
func (t *coderTerm) lines() []string {
	return strings.Split(strings.ReplaceAll(t.emu.Render(), "\r\n", "\n"), "\n")
}

// close ends the reply reader. It closes the pipe directly rather than calling
// the emulator's Close, which races a blocked Read in x/vt v0.1.0.
func (t *coderTerm) close() {
	if t.pipe != nil {
		_ = t.pipe.CloseWithError(io.EOF)
		<-t.done
	}
}

package tui

import (
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"

	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/tui/vterm"
)

// writeSlice bounds how much output the emulator parses while holding its
// lock, so a redraw never waits long for a flood to be parsed: vterm parses
// 30 MB/s or more here, so 16 KiB holds it about half a millisecond.
const writeSlice = 16 << 10

// coderTerm is the terminal emulator a full-screen coder draws into, and the
// one path by which bytes go back to the coder: the emulator's replies to
// terminal queries and, in attach mode only, the person's keys encoded the
// way the coder's terminal modes expect.
//
// Output is parsed on the emulator's own goroutine, never on the UI's: a
// coder that prints faster than the emulator parses makes the coder pane lag,
// not the keyboard or the other lanes. What the emulator has for the coder
// is taken under its lock and passed to send outside it, in the order it was
// made (sendMu).
type coderTerm struct {
	mu   sync.Mutex // guards emu, w, h
	emu  *vterm.Terminal
	w, h int

	sendMu sync.Mutex // held from taking the emulator's replies until sent
	send   func([]byte)

	qmu     sync.Mutex // guards pending, flushes, changed, every, behind, last
	pending []byte
	flushes []chan struct{}
	wake    chan struct{}
	changed func()        // called after output changed the screen; may block
	every   time.Duration // changed is called at most once in this long
	pace    pacer         // the parsing goroutine's alone
	// A coder that prints faster than the emulator parses would grow
	// pending without bound; past maxPending, output is not queued but
	// read back from the run's journal (every chunk is there before the
	// view gets it) once the emulator has caught up with the queue.
	journal string // the run's journal; "" when output cannot be read back
	behind  int64  // seq of the first chunk not queued; 0 when none
	last    int64  // seq of the newest chunk written
	cur     *journal.Cursor

	quit chan struct{}
	done sync.WaitGroup
}

// maxPending bounds the coder's output queued for the emulator (a variable
// for tests only).
var maxPending = 4 << 20

// newCoderTerm makes the emulator, w×h; send gets the bytes meant for the
// coder; journalPath is the run's journal ("" for none), from which output
// the emulator fell behind on is read back.
func newCoderTerm(w, h int, send func([]byte), journalPath string) *coderTerm {
	w, h = max(w, 1), max(h, 1)
	t := &coderTerm{emu: vterm.New(w, h), w: w, h: h, send: send, wake: make(chan struct{}, 1), quit: make(chan struct{}),
		journal: journalPath}
	t.done.Add(1)
	go t.parse()
	return t
}

// unlockAndSend releases t.mu, which must be held, and passes what the
// emulator had for the coder to send. It is taken under t.mu and sent under
// sendMu, taken before t.mu is released, so replies and keys reach the
// coder in the order the emulator made them.
func (t *coderTerm) unlockAndSend() {
	r := t.emu.Replies()
	if len(r) == 0 {
		t.mu.Unlock()
		return
	}
	t.sendMu.Lock()
	t.mu.Unlock()
	defer t.sendMu.Unlock()
	t.send(r)
}

// parse feeds queued output to the emulator until close.
func (t *coderTerm) parse() {
	defer t.done.Done()
	defer t.pace.stop()
	for {
		select {
		case <-t.quit:
			return
		case <-t.pace.due():
			changed, _ := t.redraw()
			t.pace.fired(changed)
			continue
		case <-t.wake:
		}
		t.qmu.Lock()
		data, flushes, behind := t.pending, t.flushes, t.behind
		t.pending, t.flushes = nil, nil
		t.qmu.Unlock()
		t.feed(data)
		if behind > 0 {
			t.catchUp(behind)
		}
		for _, f := range flushes {
			close(f)
		}
	}
}

// redraw is what to call after output changed the screen, and how often at
// most.
func (t *coderTerm) redraw() (func(), time.Duration) {
	t.qmu.Lock()
	defer t.qmu.Unlock()
	return t.changed, t.every
}

func (t *coderTerm) signal() {
	select {
	case t.wake <- struct{}{}:
	default:
	}
}

// setChanged sets what is called after output changed the screen, at most
// once every (a frame; 0 for after every change).
func (t *coderTerm) setChanged(f func(), every time.Duration) {
	t.qmu.Lock()
	t.changed, t.every = f, every
	t.qmu.Unlock()
}

// feed parses data, a slice at a time under the emulator's lock, and has
// the screen redrawn as it goes, at most once a frame.
func (t *coderTerm) feed(data []byte) {
	for len(data) > 0 {
		n := min(len(data), writeSlice)
		t.mu.Lock()
		_, _ = t.emu.Write(data[:n])
		t.unlockAndSend()
		data = data[n:]
		t.pace.changed(t.redraw())
	}
}

// catchUp parses the coder's output chunks from seq from on, read back from
// the journal, until it has parsed the newest chunk written; then output is
// queued again. A journal that cannot be read leaves the screen behind, not
// the memory unbounded.
func (t *coderTerm) catchUp(from int64) {
	defer func() {
		t.qmu.Lock()
		t.behind = 0
		t.qmu.Unlock()
	}()
	if t.cur == nil {
		c, err := journal.OpenCursor(t.journal)
		if err != nil {
			return
		}
		t.cur = c
	}
	for {
		ev, ok, err := t.cur.Next()
		if err != nil {
			return
		}
		if !ok { // the line is still being written: wait for it
			select {
			case <-t.quit:
				return
			case <-time.After(time.Millisecond):
			}
			continue
		}
		select {
		case <-t.quit: // closing never waits for a long read-back
			return
		default:
		}
		if ev.Seq >= from && ev.Is(journal.Coder, coderstream.Output) {
			t.feed([]byte(ev.Text))
		}
		t.qmu.Lock()
		done := ev.Seq >= t.last
		if done {
			t.behind = 0 // under the same lock as write: no chunk is lost or parsed twice
		}
		t.qmu.Unlock()
		if done {
			return
		}
	}
}

// write queues coder output (the chunk of journal event seq) for the
// emulator; it never blocks on parsing.
func (t *coderTerm) write(s string, seq int64) {
	t.qmu.Lock()
	switch {
	case t.behind > 0:
		// read back from the journal once the emulator catches up
	case t.journal != "" && seq > 0 && len(t.pending) >= maxPending:
		t.behind = seq
	default:
		t.pending = append(t.pending, s...)
	}
	t.last = max(t.last, seq)
	t.qmu.Unlock()
	t.signal()
}

// queued is how many bytes of output wait for the emulator in memory.
func (t *coderTerm) queued() int {
	t.qmu.Lock()
	defer t.qmu.Unlock()
	return len(t.pending)
}

// flush waits until everything written so far is on the emulator's screen.
func (t *coderTerm) flush() {
	ch := make(chan struct{})
	t.qmu.Lock()
	t.flushes = append(t.flushes, ch)
	t.qmu.Unlock()
	t.signal()
	select {
	case <-ch:
	case <-t.quit:
	}
}

func (t *coderTerm) size() (int, int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.w, t.h
}

func (t *coderTerm) resize(w, h int) {
	w, h = max(w, 1), max(h, 1)
	t.mu.Lock()
	if w == t.w && h == t.h {
		t.mu.Unlock()
		return
	}
	t.w, t.h = w, h
	t.emu.Resize(w, h)
	t.unlockAndSend() // a coder that asked is told the new size
}

// key encodes a key press for the coder and sends it through the reply path.
func (t *coderTerm) key(k tea.KeyPressMsg) {
	t.mu.Lock()
	t.emu.SendKey(uv.Key(k))
	t.unlockAndSend()
}

// paste sends pasted text, bracketed if the coder asked for that.
func (t *coderTerm) paste(s string) {
	t.mu.Lock()
	t.emu.Paste(s)
	t.unlockAndSend()
}

// text sends raw text down the reply path (tests use it as a marker).
func (t *coderTerm) text(s string) {
	t.mu.Lock()
	t.emu.SendText(s)
	t.unlockAndSend()
}

// lines returns the screen as styled lines: the cells' text and colours
// only. The coder's hyperlinks are not drawn (an OSC 8 link shows one URL
// and opens another, or file:///etc/passwd); its title, clipboard and other
// terminal requests end in the emulator and never reach the real terminal;
// a space other than U+0020 (Claude Code's no-break space after ❯ and ⎿)
// shows as that many plain spaces; any other cell whose text is not clean
// (textsafe) shows as U+FFFD.
func (t *coderTerm) lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]string, t.h)
	row := make(uv.Line, t.w)
	for y := range t.h {
		for x := range t.w {
			c := t.emu.CellAt(x, y)
			row[x] = uv.Cell{Content: c.Content, Style: c.Style, Width: c.Width}
			switch {
			case textsafe.Clean(c.Content):
			case visibleSpace(c.Content):
				row[x].Content = strings.Repeat(" ", max(c.Width, 1))
			default:
				row[x].Content = strings.Repeat("\ufffd", max(c.Width, 1))
			}
		}
		out[y] = row.Render()
	}
	return out
}

// cursor returns where the coder's cursor is, and whether it is shown.
func (t *coderTerm) cursor() (x, y int, shown bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	x, y = t.emu.CursorPosition()
	return x, y, !t.emu.CursorHidden()
}

// close stops the parsing goroutine.
func (t *coderTerm) close() {
	select {
	case <-t.quit:
		return
	default:
	}
	close(t.quit)
	t.done.Wait()
	if t.cur != nil {
		_ = t.cur.Close()
	}
}

// visibleSpace reports whether a cell's text is one space separator (Zs):
// blank like a space on a terminal, unlike the zero-width characters (Cf)
// that hide text.
func visibleSpace(s string) bool {
	r, n := utf8.DecodeRuneInString(s)
	return n == len(s) && n > 0 && unicode.Is(unicode.Zs, r)
}

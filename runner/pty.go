package runner

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/creack/pty"
	"github.com/sentinelhq/sentinel/internal/agentutil"
	"github.com/sentinelhq/sentinel/internal/procgroup"
)

// coderProc is the coder's process tree under a pty.
type coderProc struct {
	cmd *exec.Cmd
	pty *os.File
	// stdin, when set, is the coder's input instead of the pty (claude -p).
	stdin io.WriteCloser
	mu    sync.Mutex // guards writes to the pty and stdin
	// steer and stopFn replace the pty for coders spoken to over a
	// protocol (Codex app-server): steering is a protocol message.
	steer  func(string) error
	stopFn func(time.Duration)
	done   chan struct{}
	// started is when it was set running (setCoder): what its agent
	// recorded since then is this coder's.
	started time.Time
	code    int
	err     error
	// failure, when set, is the agent's own error once it has ended: why
	// its turn failed, or "" when it did not fail.
	failure func() string
}

// startUnderPTY starts cmd as the leader of a new session with the pty as its
// controlling terminal, so the whole process group can be ended at once.
func startUnderPTY(cmd *exec.Cmd, cols, rows int) (*coderProc, error) {
	if cols <= 0 {
		cols = 120
	}
	if rows <= 0 {
		rows = 40
	}
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)})
	if err != nil {
		return nil, err
	}
	p := &coderProc{cmd: cmd, pty: f, done: make(chan struct{})}
	go func() {
		err := cmd.Wait()
		p.code = agentutil.ExitStatus(err)
		if err != nil && p.code < 0 {
			p.err = err
		}
		close(p.done)
	}()
	return p, nil
}

func (p *coderProc) write(b []byte) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stdin != nil {
		_, err := p.stdin.Write(b)
		return err
	}
	if p.pty == nil {
		return errors.New("this coder takes no keyboard input")
	}
	_, err := p.pty.Write(b)
	return err
}

// closeInput ends the coder's stdin when it is a pipe.
func (p *coderProc) closeInput() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stdin != nil {
		_ = p.stdin.Close() // the coder is ending; nothing more goes to it
	}
}

func (p *coderProc) resize(cols, rows int) {
	if p.pty != nil && cols > 0 && rows > 0 {
		// best effort: a coder gone meanwhile has no size to set
		_ = pty.Setsize(p.pty, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)})
	}
}

// stop ends the coder's whole process group: SIGTERM, then SIGKILL after grace.
func (p *coderProc) stop(grace time.Duration) {
	select {
	case <-p.done:
		return
	default:
	}
	if p.stopFn != nil {
		p.stopFn(grace)
		<-p.done
		return
	}
	pid := p.cmd.Process.Pid
	_ = procgroup.Term(pid) // ESRCH: the group is already gone
	select {
	case <-p.done:
	case <-time.After(grace):
		_ = procgroup.Kill(pid) // ESRCH: the group is already gone
		<-p.done
	}
}

// pumpOutput reads the pty and hands coalesced chunks to emit: at most one
// call per frame interval or per maxChunk bytes, always cut on a UTF-8
// boundary so no rune is split between events. It returns when the pty
// reports EOF or an error (the coder and every holder of the pty are gone).
func pumpOutput(r io.Reader, frame time.Duration, maxChunk int, emit func([]byte)) {
	reads := make(chan []byte, 64)
	go func() {
		defer close(reads)
		for {
			buf := make([]byte, 32*1024)
			n, err := r.Read(buf)
			if n > 0 {
				reads <- buf[:n]
			}
			if err != nil {
				return
			}
		}
	}()
	var pending []byte
	flush := func(all bool) {
		cut := len(pending)
		if !all {
			cut = utf8Boundary(pending)
		}
		if cut > 0 {
			emit(pending[:cut])
			pending = append([]byte(nil), pending[cut:]...)
		}
	}
	// A timer armed only while output waits: a coder that prints nothing
	// for minutes costs no wake-ups (a free-running ticker woke the whole
	// process every frame for the life of the run).
	timer := time.NewTimer(frame)
	timer.Stop()
	armed := false
	defer timer.Stop()
	for {
		select {
		case b, ok := <-reads:
			if !ok {
				flush(true)
				return
			}
			pending = append(pending, b...)
			if len(pending) >= maxChunk {
				flush(false)
			}
			if len(pending) > 0 && !armed {
				timer.Reset(frame)
				armed = true
			}
		case <-timer.C:
			armed = false
			// What flush leaves is the start of a rune; the read that
			// brings the rest arms the timer again.
			flush(false)
		}
	}
}

// utf8Boundary returns the length of the longest prefix of b that does not
// end inside a multi-byte rune.
func utf8Boundary(b []byte) int {
	n := len(b)
	for i := 1; i <= utf8.UTFMax && i <= n; i++ {
		c := b[n-i]
		if c < 0x80 {
			return n // ASCII: nothing pending
		}
		if utf8.RuneStart(c) {
			if utf8.FullRune(b[n-i:]) {
				return n
			}
			return n - i
		}
	}
	return n
}

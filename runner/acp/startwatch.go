package acp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"
)

// The handshake (initialize, session/new) is bounded as a hang, not as a
// speed: on a loaded machine an agent like opencode may take minutes to
// open a session while it works (and logs) all along. The bound is how
// long the agent may stay silent (no byte on stdout or stderr), plus a
// much longer cap for an agent that talks but never answers.

// defaultStartCap bounds the whole handshake even when the agent keeps
// writing.
const defaultStartCap = 10 * time.Minute

// liveness records when the agent last wrote anything.
type liveness struct{ last atomic.Int64 } // UnixNano

func newLiveness() *liveness {
	l := &liveness{}
	l.touch()
	return l
}

func (l *liveness) touch() { l.last.Store(time.Now().UnixNano()) }

func (l *liveness) quiet(now time.Time) time.Duration {
	return now.Sub(time.Unix(0, l.last.Load()))
}

// reader and writer pass bytes through, noting each as a sign of life.
func (l *liveness) reader(r io.Reader) io.Reader { return liveReader{r, l} }
func (l *liveness) writer(w io.Writer) io.Writer { return liveWriter{w, l} }

type liveReader struct {
	r io.Reader
	l *liveness
}

func (r liveReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if n > 0 {
		r.l.touch()
	}
	return n, err
}

type liveWriter struct {
	w io.Writer
	l *liveness
}

func (w liveWriter) Write(p []byte) (int, error) {
	if len(p) > 0 {
		w.l.touch()
	}
	return w.w.Write(p)
}

// startHang is the cause watch cancels the handshake with.
type startHang struct{ msg string }

func (e *startHang) Error() string { return e.msg }

// watch cancels ctx (with a *startHang cause) once the agent has been
// silent for idle, or once max has passed however much it writes; it
// returns when ctx ends.
func (l *liveness) watch(ctx context.Context, cancel context.CancelCauseFunc, idle, max time.Duration) {
	start := time.Now()
	t := time.NewTimer(min(idle, max))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		now := time.Now()
		if spent := now.Sub(start); spent >= max {
			cancel(&startHang{fmt.Sprintf("no answer in %v, though the agent kept writing (hung?)", max)})
			return
		}
		quiet := l.quiet(now)
		if quiet >= idle {
			cancel(&startHang{fmt.Sprintf("the agent was silent for %v without answering (hung?)", idle)})
			return
		}
		t.Reset(min(idle-quiet, max-now.Sub(start)))
	}
}

// hangCause is err, or the watch's reason when it ended the handshake.
func hangCause(ctx context.Context, err error) error {
	var h *startHang
	if c := context.Cause(ctx); errors.As(c, &h) {
		return h
	}
	return err
}

//go:build linux || darwin

package wire

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"syscall"
	"time"
)

// exchange connects to the broker at socketPath, sends m as one line and
// returns the first answer line that reads as a message with m's id (a
// line that does not answers nothing). It uses the socket directly — one
// connect, one send, reads until the answer's newline — so that a hook
// links neither the net package nor its poller. The socket's timeouts
// bound it by ctx's deadline and d (connecting and sending also by
// dialTimeout), enforced by the kernel; ctx's cancellation shuts it down.
func exchange(ctx context.Context, socketPath string, m Message, d time.Duration) (Message, error) {
	if socketPath == "" {
		return Message{}, NoRun()
	}
	m.V, m.ID = ProtocolVersion, oneID
	line, err := encodeLine(m)
	if err != nil {
		return Message{}, err
	}
	line = append(line, '\n')
	if err := ctx.Err(); err != nil {
		return Message{}, err
	}
	deadline, bounded := ctx.Deadline()
	if d > 0 && (!bounded || time.Now().Add(d).Before(deadline)) {
		deadline, bounded = time.Now().Add(d), true
	}
	// timeout sets the socket's timeout for opt: what is left of the
	// deadline, at most most (0: no more bound than the deadline).
	timeout := func(fd, opt int, most time.Duration) error {
		t := most
		if bounded {
			left := time.Until(deadline)
			if left <= 0 {
				return context.DeadlineExceeded
			}
			if t == 0 || left < t {
				t = left
			}
		}
		if t == 0 {
			return nil
		}
		tv := syscall.NsecToTimeval(max(t.Nanoseconds(), 1000)) // 0 would mean "no timeout"
		return syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, opt, &tv)
	}
	fd, err := newSocket()
	if err != nil {
		return Message{}, Unreachable(socketPath, err)
	}
	s := &sock{fd: fd}
	defer s.close()
	// Why an exchange ended early: ctx's cancellation or the deadline
	// first, else err.
	gone := func(err error) (Message, error) {
		if cerr := ctx.Err(); cerr != nil {
			return Message{}, cerr
		}
		if bounded && !time.Now().Before(deadline) {
			return Message{}, context.DeadlineExceeded
		}
		return Message{}, err
	}
	if err := timeout(fd, syscall.SO_SNDTIMEO, dialTimeout); err != nil {
		return gone(Unreachable(socketPath, err))
	}
	if err := syscall.Connect(fd, &syscall.SockaddrUnix{Name: socketPath}); err != nil {
		return gone(Unreachable(socketPath, err))
	}
	if ctx.Done() != nil { // cancellation shuts the socket down, which ends a send or read waiting on it
		stop := context.AfterFunc(ctx, s.shutdown)
		defer stop()
	}
	for rest := line; len(rest) > 0; {
		n, err := syscall.SendmsgN(fd, rest, nil, nil, sendFlags)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return gone(fmt.Errorf("send to the broker: %w", err))
		}
		rest = rest[n:]
	}
	buf := make([]byte, 0, 4096)
	for {
		if i := bytes.IndexByte(buf, '\n'); i >= 0 {
			if a, err := decodeAnswer(buf[:i]); err == nil && a.ID == oneID {
				return a, nil
			}
			buf = buf[:copy(buf, buf[i+1:])]
			continue
		}
		if len(buf) > MaxMessage {
			return gone(errors.New("the broker's answer is longer than a protocol line may be"))
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		// Each read waits at most what is left of the deadline, so an answer
		// that trickles in cannot stretch the exchange past it.
		if err := timeout(fd, syscall.SO_RCVTIMEO, 0); err != nil {
			return gone(err)
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN && bounded: // the receive timeout is the deadline's
			return gone(context.DeadlineExceeded)
		case err != nil:
			return gone(fmt.Errorf("the broker went away: %w", err))
		case n == 0:
			return gone(errors.New("the broker went away: the broker closed the connection"))
		}
		buf = buf[:len(buf)+n]
	}
}

// sock is the exchange's socket: shut down at most while it is open, so a
// late ctx never touches a descriptor number reused after the close.
type sock struct {
	mu     sync.Mutex
	fd     int
	closed bool
}

func (s *sock) shutdown() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		syscall.Shutdown(s.fd, syscall.SHUT_RDWR)
	}
}

func (s *sock) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	syscall.Close(s.fd)
}

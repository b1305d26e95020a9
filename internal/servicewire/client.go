package servicewire

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"
	"time"

	"github.com/sentinelhq/sentinel/internal/peercred"
)

// Dial connects to the user's service. No service (no socket, or nobody
// listening) is ErrNotRunning.
func Dial(ctx context.Context) (net.Conn, error) {
	path, err := SocketPath()
	if errors.Is(err, peercred.ErrUnsupported) {
		return nil, ErrNotRunning // no service can run here
	}
	if err != nil {
		return nil, err
	}
	return DialPath(ctx, path)
}

// DialPath is Dial to the socket at path.
func DialPath(ctx context.Context, path string) (net.Conn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ENOENT) {
			return nil, ErrNotRunning
		}
		return nil, err
	}
	return c, nil
}

// CallTimeout bounds a call (Do) whose context has no deadline of its own:
// a service that accepts the connection and never answers must not hang
// the command that asked. With the command's own start it stays under 10 s
// (the service's own work in one call, e.g. status.list settling gone
// runs, is bounded well inside it).
var CallTimeout = 8 * time.Second

// NoAnswerError is a call the service accepted and did not answer in time.
type NoAnswerError struct {
	Op     string
	Socket string
	Wait   time.Duration
}

func (e *NoAnswerError) Error() string {
	return fmt.Sprintf("the service at %s did not answer %s within %s: it may be hung — restart it (systemctl --user restart sentinel.service, or end and start 'sentinel service'); 'sentinel service status' checks it", e.Socket, e.Op, e.Wait)
}

// Do sends op with body and decodes the one reply into out (nil: ignore
// it). A stream's intermediate replies are an error here: use Stream. A
// ctx with no deadline gets CallTimeout; a call whose deadline passes is a
// *NoAnswerError.
func Do(ctx context.Context, op string, body, out any) error {
	wait := CallTimeout
	if d, ok := ctx.Deadline(); ok {
		wait = time.Until(d).Round(time.Second)
	} else {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, wait)
		defer cancel()
	}
	err := Stream(ctx, op, body, func(json.RawMessage) error {
		return errors.New(op + ": the service streamed replies to a call")
	}, out)
	if errors.Is(err, context.DeadlineExceeded) {
		sock, _ := SocketPath()
		return &NoAnswerError{Op: op, Socket: sock, Wait: wait}
	}
	return err
}

// Stream sends op with body, hands each intermediate reply to each (an
// error from it ends the stream), and decodes the last into out.
func Stream(ctx context.Context, op string, body any, each func(json.RawMessage) error, out any) error {
	c, err := Dial(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	var raw json.RawMessage
	if body != nil {
		if raw, err = json.Marshal(body); err != nil {
			return err
		}
	}
	line, err := json.Marshal(Request{V: Version, Op: op, Body: raw})
	if err != nil {
		return err
	}
	if _, err := c.Write(append(line, '\n')); err != nil {
		return ctxErr(ctx, err)
	}
	br := bufio.NewReaderSize(c, 64<<10)
	for {
		l, err := readLine(br)
		if err != nil {
			return ctxErr(ctx, err)
		}
		var r Reply
		if err := json.Unmarshal(l, &r); err != nil {
			return errors.New(op + ": malformed reply from the service: " + err.Error())
		}
		if !r.OK {
			return &RemoteError{Op: op, Msg: r.Error}
		}
		if r.More {
			if err := each(r.Body); err != nil {
				return err
			}
			continue
		}
		if out != nil && len(r.Body) > 0 {
			return json.Unmarshal(r.Body, out)
		}
		return nil
	}
}

func ctxErr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

package approvals

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/approvals/wire"
)

// EnvHookTimeout optionally tells `sentinel hook` how long to wait for a
// decision (a Go duration like "9m30s"). Set it below the agent's own hook
// timeout: an agent lets a timed-out hook's call proceed, so the hook must
// deny first.
const EnvHookTimeout = wire.EnvHookTimeout

// Client talks to a broker over its socket. It is safe for concurrent use:
// many requests may be in flight on one connection. Every failure of the
// client is a deny.
type Client struct {
	conn net.Conn
	wmu  sync.Mutex

	mu      sync.Mutex
	seq     int
	waiting map[string]chan message
	err     error // set once the connection is gone
	gone    chan struct{}
}

// Dial connects to the broker at socketPath.
func Dial(socketPath string) (*Client, error) {
	if socketPath == "" {
		return nil, wire.NoRun()
	}
	c, err := net.DialTimeout("unix", socketPath, 5*time.Second)
	if err != nil {
		return nil, wire.Unreachable(socketPath, err)
	}
	cl := &Client{conn: c, waiting: map[string]chan message{}, gone: make(chan struct{})}
	go cl.readLoop()
	return cl, nil
}

// Close ends the connection; requests still waiting are denied.
func (c *Client) Close() error { return c.conn.Close() }

func (c *Client) readLoop() {
	sc := bufio.NewScanner(c.conn)
	sc.Buffer(make([]byte, 64<<10), maxMessage)
	for sc.Scan() {
		var m message
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			continue // a line we cannot read answers nothing; its waiter times out or sees the close
		}
		c.mu.Lock()
		ch := c.waiting[m.ID]
		delete(c.waiting, m.ID)
		c.mu.Unlock()
		if ch != nil {
			ch <- m
		}
	}
	err := sc.Err()
	if err == nil {
		err = errors.New("the broker closed the connection")
	}
	c.mu.Lock()
	c.err = err
	c.mu.Unlock()
	close(c.gone)
}

func (c *Client) roundTrip(ctx context.Context, m message) (message, error) {
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return message{}, err
	}
	c.seq++
	m.ID = "c" + strconv.Itoa(c.seq)
	m.V = ProtocolVersion
	ch := make(chan message, 1)
	c.waiting[m.ID] = ch
	c.mu.Unlock()
	drop := func() {
		c.mu.Lock()
		delete(c.waiting, m.ID)
		c.mu.Unlock()
	}
	line, err := json.Marshal(m)
	if err != nil {
		drop()
		return message{}, err
	}
	c.wmu.Lock()
	_, err = c.conn.Write(append(line, '\n'))
	c.wmu.Unlock()
	if err != nil {
		drop()
		return message{}, fmt.Errorf("send to the broker: %w", err)
	}
	select {
	case r := <-ch:
		return r, nil
	case <-c.gone:
		select { // the answer may have arrived just before the close
		case r := <-ch:
			return r, nil
		default:
		}
		drop()
		return message{}, fmt.Errorf("the broker went away: %w", c.err)
	case <-ctx.Done():
		drop()
		return message{}, ctx.Err()
	}
}

// Ask sends a request and waits for its decision. On any failure the
// returned decision is a deny (By "error" or "timeout") and err says why.
func (c *Client) Ask(ctx context.Context, req Request) (Decision, error) {
	return wire.DecisionIn(c.roundTrip(ctx, message{Type: msgRequest, Request: &req}))
}

// Report sends something that needs no decision; the broker journals it.
func (c *Client) Report(ctx context.Context, rep Report) error {
	_, err := c.ReportNote(ctx, rep)
	return err
}

// ReportNote is Report that also returns the broker's note for the coder's
// agent ("" when none): what Sentinel refused since the last tool result.
func (c *Client) ReportNote(ctx context.Context, rep Report) (string, error) {
	return wire.NoteIn(c.roundTrip(ctx, message{Type: msgReport, Report: &rep}))
}

// AskOnce asks one request on a connection of its own (wire.AskOnce). It
// never fails open: an unreachable broker is a deny.
func AskOnce(ctx context.Context, socketPath string, req Request) (Decision, error) {
	return wire.AskOnce(ctx, socketPath, req)
}

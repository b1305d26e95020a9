package codex

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
)

// message is one JSON-RPC message as codex app-server writes it: JSON-RPC
// 2.0 without the "jsonrpc" field, one object per line.
type message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *rpcError) Error() string {
	return fmt.Sprintf("codex app-server error %d: %s", e.Code, e.Message)
}

// maxMessage bounds one line read from the app-server.
const maxMessage = 64 << 20

// conn is the client side of the app-server's stdio JSON-RPC.
type conn struct {
	w   io.Writer
	wmu sync.Mutex

	mu      sync.Mutex
	seq     int
	waiting map[string]chan message
	err     error
	gone    chan struct{}
	trace   func(dir string, line []byte) // nil: no trace
}

func newConn(w io.Writer) *conn {
	return &conn{w: w, waiting: map[string]chan message{}, gone: make(chan struct{})}
}

func (c *conn) write(m any) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.trace != nil {
		c.trace(">", b)
	}
	_, err = c.w.Write(append(b, '\n'))
	return err
}

// call sends a request and waits for its response.
func (c *conn) call(ctx context.Context, method string, params any, result any) error {
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return err
	}
	c.seq++
	id := strconv.Itoa(c.seq)
	ch := make(chan message, 1)
	c.waiting[id] = ch
	c.mu.Unlock()
	drop := func() {
		c.mu.Lock()
		delete(c.waiting, id)
		c.mu.Unlock()
	}
	p, err := json.Marshal(params)
	if err != nil {
		drop()
		return err
	}
	if err := c.write(message{ID: json.RawMessage(id), Method: method, Params: p}); err != nil {
		drop()
		return fmt.Errorf("send %s to codex: %w", method, err)
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return fmt.Errorf("%s: %w", method, m.Error)
		}
		if result != nil && len(m.Result) > 0 {
			if err := json.Unmarshal(m.Result, result); err != nil {
				return fmt.Errorf("%s: read the answer: %w", method, err)
			}
		}
		return nil
	case <-c.gone:
		drop()
		return fmt.Errorf("%s: codex app-server went away: %w", method, c.err)
	case <-ctx.Done():
		drop()
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// notify sends a notification (no answer).
func (c *conn) notify(method string, params any) error {
	m := message{Method: method}
	if params != nil {
		p, err := json.Marshal(params)
		if err != nil {
			return err
		}
		m.Params = p
	}
	return c.write(m)
}

// reply answers a server request.
func (c *conn) reply(id json.RawMessage, result any) error {
	r, err := json.Marshal(result)
	if err != nil {
		return err
	}
	return c.write(message{ID: id, Result: r})
}

// replyError answers a server request with an error.
func (c *conn) replyError(id json.RawMessage, code int, msg string) error {
	return c.write(message{ID: id, Error: &rpcError{Code: code, Message: msg}})
}

// readLoop reads messages until r ends: responses go to their callers,
// everything else (server requests, notifications) to handle, in order.
func (c *conn) readLoop(r io.Reader, handle func(message)) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxMessage)
	for sc.Scan() {
		if c.trace != nil {
			c.trace("<", sc.Bytes())
		}
		var m message
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			handle(message{Method: "sentinel/unreadable", Params: jsonString(sc.Text())})
			continue
		}
		if m.Method == "" && len(m.ID) > 0 {
			c.mu.Lock()
			ch := c.waiting[idKey(m.ID)]
			delete(c.waiting, idKey(m.ID))
			c.mu.Unlock()
			if ch != nil {
				ch <- m
			}
			continue
		}
		handle(m)
	}
	err := sc.Err()
	if err == nil {
		err = errors.New("its output ended")
	}
	c.mu.Lock()
	c.err = err
	c.mu.Unlock()
	close(c.gone)
}

// idKey normalises an id ("3" and 3 are the same request).
func idKey(id json.RawMessage) string {
	var s string
	if json.Unmarshal(id, &s) == nil {
		return s
	}
	return string(id)
}

func jsonString(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

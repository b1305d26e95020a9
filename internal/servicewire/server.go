package servicewire

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/internal/peercred"
)

// Peer is the process at the other end of a connection, as the kernel
// tells it (SO_PEERCRED), not as it claims.
type Peer struct {
	UID int
	PID int
}

// Call is one request being served.
type Call struct {
	Op   string
	Peer Peer
	Body json.RawMessage
	send func(Reply) error
}

// Decode reads the request's body into v; an error names the op.
func (c *Call) Decode(v any) error {
	if len(c.Body) == 0 {
		return fmt.Errorf("%s: the request has no body", c.Op)
	}
	if err := json.Unmarshal(c.Body, v); err != nil {
		return fmt.Errorf("%s: malformed body: %v", c.Op, err)
	}
	return nil
}

// Send sends one reply of a stream; the handler's return sends the last.
func (c *Call) Send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return c.send(Reply{V: Version, OK: true, More: true, Body: b})
}

// Handler serves one op. It returns the last reply's body (nil: none) or
// an error, which the client gets as a RemoteError. ctx ends when the
// client goes away or the service stops.
type Handler func(ctx context.Context, c *Call) (any, error)

// Mux maps ops to handlers.
type Mux struct {
	mu sync.RWMutex
	h  map[string]Handler
}

// NewMux returns a Mux that already answers "hello" (the version and the
// service's pid and ops).
func NewMux() *Mux {
	m := &Mux{h: map[string]Handler{}}
	started := time.Now().UTC()
	m.Handle(OpHello, func(ctx context.Context, c *Call) (any, error) {
		return Hello{Version: Version, PID: os.Getpid(), Started: started, Ops: m.ops()}, nil
	})
	return m
}

// OpHello answers Hello.
const OpHello = "hello"

// Hello is the answer to "hello".
type Hello struct {
	Version int       `json:"version"`
	PID     int       `json:"pid"`
	Started time.Time `json:"started"`
	Ops     []string  `json:"ops"`
}

// Handle registers h for op; a second registration of one op panics.
func (m *Mux) Handle(op string, h Handler) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, dup := m.h[op]; dup {
		panic("servicewire: op registered twice: " + op)
	}
	m.h[op] = h
}

func (m *Mux) ops() []string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var out []string
	for op := range m.h {
		out = append(out, op)
	}
	sort.Strings(out)
	return out
}

// Listen takes the service socket at path: a live service there is an
// error (one service per user); a stale socket left by a crash is
// replaced. The socket is 0600.
func Listen(path string) (net.Listener, error) {
	if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
		c.Close()
		return nil, fmt.Errorf("a Sentinel service already listens on %s (stop it first, or use it)", path)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("remove the stale socket %s: %w", path, err)
	}
	old := umask(0o177)
	ln, err := net.Listen("unix", path)
	umask(old)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, err
	}
	return ln, nil
}

// Serve answers connections on ln until ctx ends, then waits for the calls
// in flight to see their context end and return.
func Serve(ctx context.Context, ln net.Listener, m *Mux) error {
	var wg sync.WaitGroup
	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	defer wg.Wait()
	for {
		c, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return err
		}
		peer, err := peerOf(c)
		if err != nil || peer.UID != os.Getuid() {
			c.Close() // another user, or no credentials: never served
			continue
		}
		if sameNetNS(peer.PID) != nil {
			c.Close() // a sandboxed process of this user (netns_linux.go)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			serveConn(ctx, c, peer, m)
		}()
	}
}

func serveConn(ctx context.Context, c net.Conn, peer Peer, m *Mux) {
	defer c.Close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wmu sync.Mutex
	send := func(r Reply) error {
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		wmu.Lock()
		defer wmu.Unlock()
		_, err = c.Write(append(b, '\n'))
		return err
	}
	fail := func(msg string) { _ = send(Reply{V: Version, Error: msg}) }
	br := bufio.NewReaderSize(c, 64<<10)
	line, err := readLine(br)
	if err != nil {
		fail(err.Error())
		return
	}
	var req Request
	if err := json.Unmarshal(line, &req); err != nil {
		fail("malformed request: " + err.Error())
		return
	}
	if req.V != Version {
		fail(fmt.Sprintf("protocol version %d is not this service's %d: run the same Sentinel version, or restart the service", req.V, Version))
		return
	}
	m.mu.RLock()
	h := m.h[req.Op]
	m.mu.RUnlock()
	if h == nil {
		fail(fmt.Sprintf("unknown op %q (this service answers %v)", req.Op, m.ops()))
		return
	}
	// The client sends nothing more; its closing the connection ends ctx.
	go func() {
		var b [1]byte
		for {
			if _, err := c.Read(b[:]); err != nil {
				cancel()
				return
			}
		}
	}()
	body, err := h(ctx, &Call{Op: req.Op, Peer: peer, Body: req.Body, send: send})
	if err != nil {
		fail(err.Error())
		return
	}
	var raw json.RawMessage
	if body != nil {
		if raw, err = json.Marshal(body); err != nil {
			fail(err.Error())
			return
		}
	}
	_ = send(Reply{V: Version, OK: true, Body: raw})
}

func peerOf(c net.Conn) (Peer, error) {
	cred, err := peercred.Of(c)
	if err != nil {
		return Peer{}, err
	}
	return Peer{UID: cred.UID, PID: cred.PID}, nil
}

// readLine reads one line of at most MaxLine bytes.
func readLine(br *bufio.Reader) ([]byte, error) {
	var out []byte
	for {
		chunk, isPrefix, err := br.ReadLine()
		if err != nil {
			return nil, err
		}
		out = append(out, chunk...)
		if len(out) > MaxLine {
			return nil, fmt.Errorf("a line longer than %d bytes", MaxLine)
		}
		if !isPrefix {
			return out, nil
		}
	}
}

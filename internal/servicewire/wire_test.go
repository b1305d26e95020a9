package servicewire

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func startService(t *testing.T, m *Mux) string {
	t.Helper()
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	path, err := SocketPath()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, m) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	return path
}

func TestCallStreamAndErrors(t *testing.T) {
	m := NewMux()
	m.Handle("echo", func(ctx context.Context, c *Call) (any, error) {
		var v map[string]string
		if err := c.Decode(&v); err != nil {
			return nil, err
		}
		if c.Peer.UID != os.Getuid() || c.Peer.PID != os.Getpid() {
			t.Errorf("peer %+v", c.Peer)
		}
		return v, nil
	})
	m.Handle("count", func(ctx context.Context, c *Call) (any, error) {
		for i := range 3 {
			if err := c.Send(i); err != nil {
				return nil, err
			}
		}
		return "done", nil
	})
	path := startService(t, m)
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("socket %v %v", st, err)
	}
	if st, _ := os.Stat(filepath.Dir(path)); st.Mode().Perm() != 0o700 {
		t.Errorf("socket dir mode %v", st.Mode())
	}
	ctx := context.Background()
	var got map[string]string
	if err := Do(ctx, "echo", map[string]string{"a": "b"}, &got); err != nil || got["a"] != "b" {
		t.Errorf("echo: %v %v", got, err)
	}
	var seen []int
	var last string
	err := Stream(ctx, "count", nil, func(r json.RawMessage) error {
		var n int
		json.Unmarshal(r, &n)
		seen = append(seen, n)
		return nil
	}, &last)
	if err != nil || len(seen) != 3 || last != "done" {
		t.Errorf("stream: %v %q %v", seen, last, err)
	}
	var re *RemoteError
	if err := Do(ctx, "nope", nil, nil); !errors.As(err, &re) || !strings.Contains(err.Error(), `unknown op "nope"`) {
		t.Errorf("unknown op: %v", err)
	}
	if err := Do(ctx, "echo", nil, nil); !errors.As(err, &re) || !strings.Contains(err.Error(), "no body") {
		t.Errorf("no body: %v", err)
	}
	var h Hello
	if err := Do(ctx, OpHello, nil, &h); err != nil || h.Version != Version || h.PID != os.Getpid() || len(h.Ops) != 3 {
		t.Errorf("hello %+v %v", h, err)
	}
	// Another version is refused by name.
	c, err := DialPath(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write([]byte(`{"v":99,"op":"hello"}` + "\n"))
	buf := make([]byte, 4096)
	n, _ := c.Read(buf)
	if !strings.Contains(string(buf[:n]), "protocol version 99") {
		t.Errorf("version mismatch answered %s", buf[:n])
	}
	// One service per user.
	if _, err := Listen(path); err == nil || !strings.Contains(err.Error(), "already listens") {
		t.Errorf("a second service: %v", err)
	}
}

// A client that goes away ends its call's context: a run waiting on a
// decision that gives up must not leave the service waiting for it.
func TestClientGoneEndsTheCall(t *testing.T) {
	m := NewMux()
	ended := make(chan struct{})
	entered := make(chan struct{})
	m.Handle("wait", func(ctx context.Context, c *Call) (any, error) {
		close(entered)
		<-ctx.Done()
		close(ended)
		return nil, ctx.Err()
	})
	startService(t, m)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- Do(ctx, "wait", nil, nil) }()
	<-entered
	cancel()
	<-ended
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled call: %v", err)
	}
}

func TestNotRunningAndStaleSocket(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	if err := Do(context.Background(), OpHello, nil, nil); !errors.Is(err, ErrNotRunning) {
		t.Errorf("no service: %v", err)
	}
	path, _ := SocketPath()
	ln, err := net.Listen("unix", path) // a crashed service's socket
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close()
	if err := Do(context.Background(), OpHello, nil, nil); !errors.Is(err, ErrNotRunning) {
		t.Errorf("stale socket: %v", err)
	}
	ln2, err := Listen(path)
	if err != nil {
		t.Fatalf("a stale socket was not replaced: %v", err)
	}
	ln2.Close()
}

// A socket directory someone else could have prepared is refused.
func TestSocketDirMustBePrivate(t *testing.T) {
	rt := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", rt)
	os.Mkdir(filepath.Join(rt, "sentinel"), 0o755)
	if _, err := SocketPath(); err == nil || !strings.Contains(err.Error(), "not a private directory") {
		t.Errorf("open dir: %v", err)
	}
}

// A service that accepts the call and never answers does not hang the
// caller: the call ends at CallTimeout with a line naming the socket and
// what to do.
func TestSilentServiceEndsTheCall(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	path, err := SocketPath()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept() // accepted, never answered
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	old := CallTimeout
	CallTimeout = 200 * time.Millisecond
	defer func() { CallTimeout = old }()
	done := make(chan error, 1)
	go func() { done <- Do(context.Background(), OpHello, nil, nil) }()
	select {
	case err := <-done:
		var na *NoAnswerError
		if !errors.As(err, &na) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "restart") {
			t.Fatalf("a silent service: %v", err)
		}
	case <-time.After(30 * time.Second): // a bound on the hang this test is about
		t.Fatal("the call to a silent service never ended")
	}
}

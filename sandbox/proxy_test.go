package sandbox

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// startProxy serves a proxy on a unix socket, as the sandbox does, and
// returns a dialer for it.
func startProxy(t *testing.T, allow []string, asker HostAsker) (*Proxy, func() net.Conn) {
	t.Helper()
	px, err := NewProxy(allow, asker)
	if err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(t.TempDir(), "p.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	go px.Serve(ln)
	t.Cleanup(func() { px.Close() })
	return px, func() net.Conn {
		c, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
}

func upstream(t *testing.T, body string) (string, int) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "%s %s", body, r.URL.Path)
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	a := ln.Addr().(*net.TCPAddr)
	return a.String(), a.Port
}

// get sends one plain-HTTP proxy request and returns status and body.
func get(t *testing.T, c net.Conn, url string) (int, string) {
	t.Helper()
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", url)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// connect sends a CONNECT and, when it succeeds, an HTTP request through
// the tunnel.
func connect(t *testing.T, c net.Conn, hostport string) (int, string) {
	t.Helper()
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", hostport, hostport)
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	fmt.Fprintf(c, "GET /tunnel HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", hostport)
	inner, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(inner.Body)
	return 200, string(b)
}

type askLog struct {
	mu     sync.Mutex
	asked  []string
	answer bool
}

func (a *askLog) ask(ctx context.Context, host string, port int) (bool, string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked = append(a.asked, fmt.Sprintf("%s:%d", host, port))
	return a.answer, "person said no"
}

func TestProxyDecisions(t *testing.T) {
	addr, port := upstream(t, "upstream")
	tests := []struct {
		name      string
		allow     []string
		answer    bool
		connect   bool
		target    string
		wantCode  int
		wantBody  string
		wantAsked bool
	}{
		{"configured loopback host passes plain http", []string{addr}, false, false, "http://" + addr + "/v1/messages", 200, "upstream /v1/messages", false},
		{"configured loopback host passes CONNECT", []string{addr}, false, true, addr, 200, "upstream /tunnel", false},
		{"unknown host is asked and refused", nil, false, false, "http://" + addr + "/", 403, "person said no", true},
		{"unknown host is asked; yes still cannot reach loopback", nil, true, false, "http://" + addr + "/", 403, "internal address", true},
		{"metadata address is refused even when approved", nil, true, true, "169.254.169.254:80", 403, "internal address", true},
		{"private address is refused even when approved", nil, true, false, "http://10.1.2.3/", 403, "internal address", true},
		{"another port of a configured host is asked", []string{addr}, false, false, fmt.Sprintf("http://127.0.0.1:%d/", port+1), 403, "person said no", true},
		{"https URL without CONNECT is refused", nil, false, false, "https://example.com/", 400, "only absolute http://", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log := &askLog{answer: tt.answer}
			_, dial := startProxy(t, tt.allow, log.ask)
			var code int
			var body string
			if tt.connect {
				code, body = connect(t, dial(), tt.target)
			} else {
				code, body = get(t, dial(), tt.target)
			}
			if code != tt.wantCode || !strings.Contains(body, tt.wantBody) {
				t.Errorf("got %d %q, want %d containing %q", code, body, tt.wantCode, tt.wantBody)
			}
			if asked := len(log.asked) > 0; asked != tt.wantAsked {
				t.Errorf("asker consulted = %v (%v), want %v", asked, log.asked, tt.wantAsked)
			}
		})
	}
}

func TestProxyRemembersApprovedHosts(t *testing.T) {
	log := &askLog{answer: false}
	px, dial := startProxy(t, nil, log.ask)
	// Approval (remembered or not) never lifts the internal-address check.
	px.Resolve = func(ctx context.Context, host string) ([]netip.Addr, error) {
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
	}
	px.AllowHost("api.example.com", 443)
	code, body := connect(t, dial(), "api.example.com:443")
	if code != 403 || !strings.Contains(body, "internal address") {
		t.Errorf("remembered host resolving to loopback: got %d %q, want 403 internal address", code, body)
	}
	if len(log.asked) != 0 {
		t.Errorf("a remembered host was asked about again: %v", log.asked)
	}
}

func TestSplitAllowHost(t *testing.T) {
	tests := []struct {
		in      string
		host    string
		port    int
		wantErr bool
	}{
		{"api.anthropic.com", "api.anthropic.com", 0, false},
		{"API.Example.com:8443", "api.example.com", 8443, false},
		{"127.0.0.1:9999", "127.0.0.1", 9999, false},
		{"[::1]:80", "::1", 80, false},
		{"host:0", "", 0, true},
		{"host:http", "", 0, true},
		{"http://host/", "", 0, true},
		{"", "", 0, true},
	}
	for _, tt := range tests {
		h, p, err := splitAllowHost(tt.in)
		if (err != nil) != tt.wantErr || h != tt.host || p != tt.port {
			t.Errorf("splitAllowHost(%q) = %q, %d, %v; want %q, %d, err=%v", tt.in, h, p, err, tt.host, tt.port, tt.wantErr)
		}
	}
}

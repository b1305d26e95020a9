package sandbox

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// rawResponse sends one proxy request (plain GET or CONNECT) and returns the
// proxy's own answer with its headers.
func rawResponse(t *testing.T, c net.Conn, connect bool, target string) (*http.Response, string) {
	t.Helper()
	req := &http.Request{Method: http.MethodGet}
	if connect {
		fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", target, target)
		req.Method = http.MethodConnect
	} else {
		fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", target)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// A refused host tells the tool why, in a header and a one-line body that
// names the host and how to allow it, for plain HTTP and CONNECT alike.
func TestProxyRefusalCarriesSentinelsReason(t *testing.T) {
	for _, connect := range []bool{false, true} {
		t.Run(fmt.Sprintf("connect=%v", connect), func(t *testing.T) {
			var mu sync.Mutex
			var heard []Denial
			px, dial := startProxy(t, nil, (&askLog{answer: false}).ask)
			px.OnDeny = func(d Denial) { mu.Lock(); heard = append(heard, d); mu.Unlock() }
			target := "http://blocked.example/x"
			if connect {
				target = "blocked.example:443"
			}
			resp, body := rawResponse(t, dial(), connect, target)
			if resp.StatusCode != http.StatusForbidden {
				t.Fatalf("status %d, want 403", resp.StatusCode)
			}
			if got := resp.Header.Get(DeniedHeader); got != "person said no" {
				t.Errorf("%s = %q, want the asker's reason", DeniedHeader, got)
			}
			for _, want := range []string{"blocked.example", "person said no", "--allow-host blocked.example", "approve it when Sentinel asks"} {
				if !strings.Contains(body, want) {
					t.Errorf("body %q does not say %q", body, want)
				}
			}
			if strings.Count(strings.TrimSuffix(body, "\n"), "\n") != 0 {
				t.Errorf("body is not one line: %q", body)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(heard) != 1 || heard[0].Host != "blocked.example" || heard[0].Reason != "person said no" {
				t.Errorf("OnDeny heard %+v, want the one refusal", heard)
			}
		})
	}
}

// A reason cannot add headers or lines: a person's message or a host the
// coder wrote is kept on one line.
func TestProxyRefusalReasonStaysOneLine(t *testing.T) {
	ask := func(_ context.Context, host string, port int) (bool, string) {
		return false, "no\r\nX-Injected: 1\n\nbody"
	}
	_, dial := startProxy(t, nil, ask)
	resp, body := rawResponse(t, dial(), false, "http://blocked.example/")
	if resp.Header.Get("X-Injected") != "" {
		t.Fatalf("the reason injected a header: %v", resp.Header)
	}
	if got := resp.Header.Get(DeniedHeader); got != "no<U+000D> ⏎ X-Injected: 1 ⏎  ⏎ body" { // textsafe.Line: spelled out, never raw
		t.Errorf("%s = %q", DeniedHeader, got)
	}
	if strings.Count(body, "\n") != 1 {
		t.Errorf("body is not one line: %q", body)
	}
}

// An allowed host that cannot be reached is a 502 Bad Gateway with the
// dial error, not a 403: the tool must not think it was refused or that
// its credentials are wrong.
func TestProxyDialFailureIsBadGateway(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	for _, connect := range []bool{false, true} {
		t.Run(fmt.Sprintf("connect=%v", connect), func(t *testing.T) {
			_, dial := startProxy(t, []string{addr}, nil)
			target := "http://" + addr + "/"
			if connect {
				target = addr
			}
			resp, body := rawResponse(t, dial(), connect, target)
			if resp.StatusCode != http.StatusBadGateway {
				t.Fatalf("status %d %q, want 502", resp.StatusCode, body)
			}
			if resp.Header.Get(DeniedHeader) != "" {
				t.Errorf("a dial failure is marked as Sentinel's refusal")
			}
			if !strings.Contains(body, "connection refused") || !strings.Contains(body, addr) {
				t.Errorf("body %q does not carry the dial error", body)
			}
		})
	}
}

// A host that resolves to an internal address is refused even when
// approved; the refusal says approving cannot open it and names the
// explicit allow that can.
func TestProxyInternalAddressRefusalSaysApprovingCannotHelp(t *testing.T) {
	_, dial := startProxy(t, nil, func(context.Context, string, int) (bool, string) { return true, "approved" })
	resp, body := rawResponse(t, dial(), true, "10.1.2.3:8080")
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "Approving cannot open it") ||
		!strings.Contains(body, "--allow-host 10.1.2.3:8080") || !strings.Contains(resp.Header.Get(DeniedHeader), "internal address") {
		t.Fatalf("got %d %q (%s: %q)", resp.StatusCode, body, DeniedHeader, resp.Header.Get(DeniedHeader))
	}
}

package sandbox

import (
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// An allowed host that cannot be reached is still a 502 for the client,
// and OnDeny hears it as unreachable, with a line that says the host is
// allowed and could not be reached (not that it was refused).
func TestProxyTellsOnDenyOfAnUnreachableHost(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	px, dial := startProxy(t, []string{addr}, nil)
	var mu sync.Mutex
	var heard []Denial
	px.OnDeny = func(d Denial) { mu.Lock(); heard = append(heard, d); mu.Unlock() }
	resp, body := rawResponse(t, dial(), false, "http://"+addr+"/")
	if resp.StatusCode != http.StatusBadGateway {
		t.Fatalf("status %d %q, want 502", resp.StatusCode, body)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(heard) != 1 || !heard[0].Unreachable {
		t.Fatalf("OnDeny heard %+v, want one unreachable host", heard)
	}
	line := heard[0].Note()
	if !strings.Contains(line, "could not reach "+addr) || !strings.Contains(line, "the host is allowed") || !strings.Contains(line, "connection refused") || strings.Contains(line, "refused "+addr) {
		t.Errorf("the line for the coder: %q", line)
	}
}

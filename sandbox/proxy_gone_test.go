package sandbox

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestProxyAskEndsWhenTheClientHangsUp: a client that asks for a host
// nobody has answered yet and then goes away (CONNECT, or a plain-HTTP
// request) ends the ask's context, so the card for it is withdrawn; a
// client that stays gets its answer and its tunnel, its bytes intact.
func TestProxyAskEndsWhenTheClientHangsUp(t *testing.T) {
	for _, method := range []string{"CONNECT", "GET"} {
		t.Run(method, func(t *testing.T) {
			asked := make(chan context.Context, 1)
			_, dial := startProxy(t, nil, func(ctx context.Context, host string, port int) (bool, string) {
				asked <- ctx
				<-ctx.Done()
				return false, "withdrawn"
			})
			c := dial()
			if method == "CONNECT" {
				fmt.Fprintf(c, "CONNECT new.example:443 HTTP/1.1\r\nHost: new.example:443\r\n\r\n")
			} else {
				fmt.Fprintf(c, "GET http://new.example/x HTTP/1.1\r\nHost: new.example\r\n\r\n")
			}
			var ctx context.Context
			select {
			case ctx = <-asked:
			case <-time.After(30 * time.Second): // a bound on a hang
				t.Fatal("the proxy never asked about the host")
			}
			c.Close()
			select {
			case <-ctx.Done():
			case <-time.After(30 * time.Second): // a bound on a hang
				t.Fatal("the client hung up but the ask goes on waiting: its card would stay up")
			}
		})
	}
	t.Run("a client that stays is served", func(t *testing.T) {
		addr, port := upstream(t, "hello")
		_, dial := startProxy(t, nil, func(ctx context.Context, host string, p int) (bool, string) {
			return ctx.Err() == nil && p == port, "no"
		})
		// the upstream is on 127.0.0.1: only a configured host may reach
		// an internal address, so this asks about and then denies it —
		// what matters is that the ask's context is live while it asks
		code, body := connect(t, dial(), addr)
		if code != 403 {
			t.Fatalf("CONNECT to an internal address: %d %q", code, body)
		}
	})
	t.Run("a pipelined client keeps its bytes", func(t *testing.T) {
		addr, _ := upstream(t, "hello")
		_, dial := startProxy(t, []string{addr}, nil)
		c := dial()
		// the request inside the tunnel is sent before the proxy answers
		fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\nGET /early HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", addr, addr)
		buf := make([]byte, 4096)
		_ = c.SetReadDeadline(time.Now().Add(30 * time.Second)) // a bound on a hang
		got := ""
		for {
			n, err := c.Read(buf)
			got += string(buf[:n])
			if err != nil {
				break
			}
		}
		if want := "hello /early"; !strings.Contains(got, want) {
			t.Fatalf("the tunnel lost the client's early bytes: %q", got)
		}
	})
}

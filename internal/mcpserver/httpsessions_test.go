//go:build unix

package mcpserver

import (
	"context"
	"github.com/sentinelhq/sentinel/internal/poll"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// An HTTP session with no request for the idle time is closed, and no
// more than the most are open at once: the SDK kept every session until
// its client ended it, and 3,000 initialize calls took the server from
// 24 MB to 62 MB (31-ipatk15m).
func TestHTTPSessionsAreBounded(t *testing.T) {
	f := newFixture(t)
	srv, err := New(mustConfig(t, f.config("")), Options{Transport: "http"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	srv.httpIdle, srv.httpMaxSessions = 50*time.Millisecond, 2
	const token = "0123456789abcdef0123456789abcdef"
	hs := httptest.NewServer(srv.Handler(token))
	defer hs.Close()
	ctx := context.Background()
	connect := func(url string) (*mcp.ClientSession, error) {
		tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token}}, MaxRetries: -1, DisableStandaloneSSE: true}
		return mcp.NewClient(&mcp.Implementation{Name: "t"}, nil).Connect(ctx, tr, nil)
	}
	open := func() int {
		n := 0
		for range srv.mcp.Sessions() {
			n++
		}
		return n
	}

	// Idle sessions end (waited for, not timed: the bound is the test's).
	for range 2 {
		cs, err := connect(hs.URL)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
	}
	if !poll.Until(time.Minute, func() bool { return open() == 0 }) {
		t.Fatalf("%d sessions idle for a minute are still open (idle bound 50ms)", open())
	}

	// The most: a third session while two are open is refused.
	srv2, err := New(mustConfig(t, f.config("")), Options{Transport: "http"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv2.Close()
	srv2.httpMaxSessions = 2
	hs2 := httptest.NewServer(srv2.Handler(token))
	defer hs2.Close()
	for i := range 3 {
		cs, err := connect(hs2.URL)
		if i < 2 && err != nil {
			t.Fatalf("session %d: %v", i+1, err)
		}
		if i == 2 && err == nil {
			t.Fatal("a third session was opened while two were")
		}
		if err == nil {
			defer cs.Close()
		}
	}
}

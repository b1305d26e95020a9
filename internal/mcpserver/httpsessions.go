package mcpserver

import (
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Each `initialize` over HTTP opens a session the server keeps until the
// client ends it (DELETE), and the SDK closes none by itself: 3,000
// initialize calls took the server from 24 MB to 62 MB, never given back
// (31-ipatk15m). So a session that has had no request for HTTPSessionIdle
// is closed (a call still running keeps its session; a client told
// "session not found" initializes again, as the MCP spec says), and no
// more than MaxHTTPSessions are open at once: an initialize beyond that is
// refused (503) until one ends. The SDK has a timeout and no cap.
const (
	HTTPSessionIdle = 30 * time.Minute
	MaxHTTPSessions = 64
)

// streamableHandler is the SDK's streamable-HTTP handler for s, with its
// sessions bounded (boundSessions) and the request cap (capBody) in front.
func (s *Server) streamableHandler() http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, s.streamableOptions())
	return s.capBody(s.boundSessions(h))
}

// boundSessions refuses a request that would open a session (a POST with
// no Mcp-Session-Id) while the most are open. Such requests are served
// one at a time, so two cannot both take the last place.
func (s *Server) boundSessions(h http.Handler) http.Handler {
	most := s.httpMaxSessions
	if most <= 0 {
		most = MaxHTTPSessions
	}
	var mu sync.Mutex
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Header.Get("Mcp-Session-Id") != "" {
			h.ServeHTTP(w, r)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		n := 0
		for range s.mcp.Sessions() {
			n++
		}
		if n >= most {
			w.Header().Set("Retry-After", "60")
			http.Error(w, fmt.Sprintf("sentinel mcp: %d sessions are open, the most it keeps; one ends when its client ends it or after %s without a request", n, s.sessionIdle()), http.StatusServiceUnavailable)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// sessionIdle is how long an HTTP session may go without a request.
func (s *Server) sessionIdle() time.Duration {
	if s.httpIdle > 0 {
		return s.httpIdle
	}
	return HTTPSessionIdle
}

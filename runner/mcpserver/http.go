package mcpserver

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TLSAdvice says how to serve over TLS: the server speaks plain HTTP and is
// meant to sit behind a TLS-terminating proxy.
const TLSAdvice = "sentinel mcp speaks plain HTTP: for clients on other machines, keep it on 127.0.0.1 and put a TLS-terminating reverse proxy in front (e.g. caddy: `reverse_proxy 127.0.0.1:PORT`, or nginx with proxy_pass and proxy_buffering off), or reach it through an SSH tunnel (ssh -L)"

// CheckListen refuses a non-loopback address without a token.
func CheckListen(addr, token string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--http %s: %v (give HOST:PORT, e.g. 127.0.0.1:8765)", addr, err)
	}
	if token != "" {
		return nil
	}
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("--http %s: refusing to listen beyond loopback without a bearer token; set token_env in the config (and export it), or listen on 127.0.0.1. %s", addr, TLSAdvice)
	}
	return nil
}

// Handler is the streamable-HTTP handler for s, behind the bearer token
// when there is one (compared in constant time).
func (s *Server) Handler(token string) http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, nil)
	var out http.Handler = http.NewCrossOriginProtection().Handler(h)
	if token != "" {
		verify := func(_ context.Context, got string, _ *http.Request) (*auth.TokenInfo, error) {
			if subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1 {
				return nil, auth.ErrInvalidToken
			}
			return &auth.TokenInfo{UserID: "sentinel-mcp"}, nil
		}
		out = auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(out)
	}
	return out
}

// ServeHTTP serves streamable HTTP on addr until ctx ends.
func (s *Server) ServeHTTP(ctx context.Context, addr, token string, ready func(net.Addr)) error {
	if err := CheckListen(addr, token); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	if ready != nil {
		ready(ln.Addr())
	}
	srv := &http.Server{Handler: s.Handler(token), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

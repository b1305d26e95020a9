package mcpserver

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// TLSAdvice says how to serve over TLS: the server speaks plain HTTP and is
// meant to sit behind a TLS-terminating proxy.
const TLSAdvice = "sentinel mcp speaks plain HTTP: for clients on other machines, keep it on 127.0.0.1 and put a TLS-terminating reverse proxy in front (e.g. caddy: `reverse_proxy 127.0.0.1:PORT`, or nginx with proxy_pass and proxy_buffering off), or reach it through an SSH tunnel (ssh -L)"

// TokenEnvDefault is the variable the advice for a made-up token names.
const TokenEnvDefault = "SENTINEL_MCP_TOKEN"

// CheckListen refuses a non-loopback address without a configured token
// (a token made up at start is for loopback only: nobody chose to expose
// the server).
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

// NewToken is a random bearer token (32 bytes, hex) for a server whose
// config names none: over HTTP nothing is ever served without one.
func NewToken() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("make a bearer token: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// TokenAdvice tells the person how clients pass a token the server made
// up, and how to keep one across restarts.
func TokenAdvice(configFile, token string) string {
	return fmt.Sprintf(`sentinel mcp: the config names no token, so this server made one; it serves no request without it.
  clients send on every request the header:  Authorization: Bearer %s
  (e.g. export %s=%s and configure the client's header as "Authorization: Bearer $%s")
  to keep one token across restarts: add token_env = "%s" to %s and export %s before starting
`, token, TokenEnvDefault, token, TokenEnvDefault, TokenEnvDefault, configFile, TokenEnvDefault)
}

// Handler is the streamable-HTTP handler for s, behind the bearer token
// (compared in constant time). Without a token it refuses every request:
// an HTTP server never serves anyone without a credential. A request body
// over the request cap is refused before it is decoded.
func (s *Server) Handler(token string) http.Handler {
	var out http.Handler = http.NewCrossOriginProtection().Handler(s.streamableHandler())
	want := []byte(token)
	verify := func(_ context.Context, got string, _ *http.Request) (*auth.TokenInfo, error) {
		if len(want) == 0 || subtle.ConstantTimeCompare([]byte(got), want) != 1 {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: "sentinel-mcp", Scopes: []string{allToolsTag}}, nil
	}
	return auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(out)
}

// ServeHTTP serves streamable HTTP on addr until ctx ends. It refuses to
// start without a token.
func (s *Server) ServeHTTP(ctx context.Context, addr, token string, ready func(net.Addr)) error {
	if token == "" && !s.cfg.OAuthEnabled() {
		return errors.New("sentinel mcp --http: no bearer token: set token or token_env in the config, or let `sentinel mcp` make one")
	}
	if err := s.cfg.CheckHTTP(addr, token); err != nil {
		return err
	}
	handler, tlsCfg, err := s.httpServing(token)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	if ready != nil {
		ready(ln.Addr())
	}
	// IdleTimeout: a kept-alive connection waiting for its next request is
	// closed (without it one waits for ever, and a local user's idle
	// connections use up the server's descriptors; closeRefused).
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10, TLSConfig: tlsCfg}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	serve := srv.Serve
	if tlsCfg != nil {
		serve = func(l net.Listener) error { return srv.ServeTLS(l, "", "") }
	}
	if err := serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// closeRefused closes the connection of every request refused for its
// credential (401, 403): a client without the token keeps no connection
// open past its answer. Before, each one sent with a wrong token stayed
// open for ever: another local user held 1,000 (the server's descriptor
// limit) and the person's own client could no longer connect.
func closeRefused(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(&refusedCloser{ResponseWriter: w}, r)
	})
}

type refusedCloser struct{ http.ResponseWriter }

func (c *refusedCloser) WriteHeader(code int) {
	if code == http.StatusUnauthorized || code == http.StatusForbidden {
		c.Header().Set("Connection", "close")
	}
	c.ResponseWriter.WriteHeader(code)
}

// Flush and Unwrap keep streaming answers (text/event-stream) working.
func (c *refusedCloser) Flush() { http.NewResponseController(c.ResponseWriter).Flush() }

func (c *refusedCloser) Unwrap() http.ResponseWriter { return c.ResponseWriter }

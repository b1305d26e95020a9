//go:build unix

package mcpserver

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestCheckListen(t *testing.T) {
	t.Parallel()
	for addr, ok := range map[string]bool{"127.0.0.1:0": true, "[::1]:8765": true, "localhost:1": true, "0.0.0.0:8765": false, ":8765": false, "10.0.0.5:80": false, "example.com:80": false} {
		err := CheckListen(addr, "")
		if (err == nil) != ok {
			t.Errorf("CheckListen(%s, no token) = %v", addr, err)
		}
		if err != nil && !strings.Contains(err.Error(), "TLS") {
			t.Errorf("the refusal does not say how to put it behind TLS: %v", err)
		}
		if err := CheckListen(addr, "0123456789abcdef0123"); err != nil {
			t.Errorf("CheckListen(%s, token) = %v", addr, err)
		}
	}
}

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if b.token != "" {
		r.Header.Set("Authorization", "Bearer "+b.token)
	}
	return http.DefaultTransport.RoundTrip(r)
}

func TestHTTPNeedsTheToken(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	srv, err := New(mustConfig(t, f.config("")), Options{Transport: "http"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	const token = "0123456789abcdef0123456789abcdef"
	hs := httptest.NewServer(srv.Handler(token))
	defer hs.Close()
	ctx := context.Background()
	connect := func(tok string) (*mcp.ClientSession, error) {
		tr := &mcp.StreamableClientTransport{Endpoint: hs.URL, HTTPClient: &http.Client{Transport: bearer{tok}}, MaxRetries: -1}
		return mcp.NewClient(&mcp.Implementation{Name: "t"}, nil).Connect(ctx, tr, nil)
	}
	for _, bad := range []string{"", "wrong-token-wrong-token-wrong"} {
		if cs, err := connect(bad); err == nil {
			cs.Close()
			t.Fatalf("token %q was let in", bad)
		}
	}
	cs, err := connect(token)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"path": f.rw + "/notes.txt"}})
	if err != nil || res.IsError {
		t.Fatalf("read over HTTP: %v %+v", err, res)
	}
	// Malformed JSON-RPC is an HTTP error, not a crash.
	req, _ := http.NewRequest("POST", hs.URL, strings.NewReader("{not json"))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode < 400 {
		t.Fatalf("bad JSON got %d", resp.StatusCode)
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "help"}); err != nil {
		t.Fatalf("the server stopped answering: %v", err)
	}
}

func TestServeHTTPWithTokenFromEnv(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cfg := mustConfig(t, f.config(`token_env = "SENTINEL_MCP_TEST_TOKEN"`))
	if _, err := cfg.ResolveToken(func(string) string { return "" }); err == nil || !strings.Contains(err.Error(), "SENTINEL_MCP_TEST_TOKEN is unset") {
		t.Fatalf("an unset token_env: %v", err)
	}
	const token = "fedcba9876543210fedcba9876543210"
	tok, err := cfg.ResolveToken(func(k string) string { return map[string]string{"SENTINEL_MCP_TEST_TOKEN": token}[k] })
	if err != nil || tok != token {
		t.Fatalf("token_env: %q %v", tok, err)
	}
	srv, err := New(cfg, Options{Transport: "http"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- srv.ServeHTTP(ctx, "127.0.0.1:0", tok, func(a net.Addr) { addr <- a.String() })
	}()
	url := "http://" + <-addr + "/"
	tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token}}, MaxRetries: -1}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t"}, nil).Connect(ctx, tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "capabilities"})
	if err != nil || res.IsError {
		t.Fatalf("capabilities over HTTP: %v %+v", err, res)
	}
	cs.Close()
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("ServeHTTP: %v", err)
	}
}

// rawPost sends one JSON-RPC initialize with the given Authorization
// header (none when empty) and returns the status.
func rawPost(t *testing.T, url, authz, body string) int {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	if authz != "" {
		req.Header.Set("Authorization", authz)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`

// Over HTTP nothing is served without the token: no header, a wrong token,
// another scheme, and a handler given no token at all (every request
// refused). Nothing of what was refused reaches a tool.
func TestHTTPServesNoOneWithoutTheToken(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	srv, err := New(mustConfig(t, f.config("")), Options{Transport: "http"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	const token = "0123456789abcdef0123456789abcdef"
	withToken := httptest.NewServer(srv.Handler(token))
	defer withToken.Close()
	for _, authz := range []string{"", "Bearer ", "Bearer 0123456789abcdef0123456789abcdee", "Bearer " + token + "x", "Basic " + token, "bearer"} {
		if code := rawPost(t, withToken.URL, authz, initBody); code != http.StatusUnauthorized {
			t.Errorf("Authorization %q: status %d, want 401", authz, code)
		}
	}
	if code := rawPost(t, withToken.URL, "Bearer "+token, initBody); code != http.StatusOK {
		t.Fatalf("the right token: status %d", code)
	}
	noToken := httptest.NewServer(srv.Handler(""))
	defer noToken.Close()
	for _, authz := range []string{"", "Bearer ", "Bearer " + token} {
		if code := rawPost(t, noToken.URL, authz, initBody); code != http.StatusUnauthorized {
			t.Errorf("a handler without a token, Authorization %q: status %d, want 401", authz, code)
		}
	}
	gone, cancel := context.WithCancel(context.Background())
	cancel() // a server that did start would stop at once
	err = srv.ServeHTTP(gone, "127.0.0.1:0", "", func(net.Addr) { t.Error("ServeHTTP listened without a token") })
	if err == nil || !strings.Contains(err.Error(), "no bearer token") {
		t.Fatalf("ServeHTTP without a token: %v", err)
	}
	if calls := auditCalls(t, srv); len(calls) != 0 {
		t.Fatalf("refused requests reached tools: %+v", calls)
	}
}

// A made-up token is long and random, and the advice says how a client
// passes it and how to keep one.
func TestNewTokenAndItsAdvice(t *testing.T) {
	t.Parallel()
	a, err := NewToken()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewToken()
	if len(a) != 64 || a == b {
		t.Fatalf("tokens %q %q: want 64 hex characters, each new", a, b)
	}
	adv := TokenAdvice("/etc/mcp.toml", a)
	for _, want := range []string{"Authorization: Bearer " + a, TokenEnvDefault + "=" + a, `token_env = "` + TokenEnvDefault + `" to /etc/mcp.toml`} {
		if !strings.Contains(adv, want) {
			t.Errorf("the advice lacks %q:\n%s", want, adv)
		}
	}
}

// A request refused for its credential closes its connection (ipatk13m
// row 12: sentinel-ci held 1,000 kept-alive connections with a wrong
// token and the person's client could not connect); one with the token
// keeps it.
func TestHTTPClosesTheConnectionOfARefusedRequest(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	srv, err := New(mustConfig(t, f.config("")), Options{Transport: "http"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	const token = "0123456789abcdef0123456789abcdef"
	h, err := srv.HTTPHandler(token)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(h)
	defer hs.Close()
	post := func(tok, origin string) *http.Response {
		req, _ := http.NewRequest("POST", hs.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`))
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
			req.Header.Set("Sec-Fetch-Site", "cross-site")
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	for _, c := range []struct{ tok, origin string }{{"", ""}, {"wrong", ""}, {token, "https://evil.example"}} {
		resp := post(c.tok, c.origin)
		if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
			t.Errorf("token %q origin %q: %d", c.tok, c.origin, resp.StatusCode)
		}
		if !resp.Close {
			t.Errorf("token %q origin %q: refused (%d) and the connection kept open", c.tok, c.origin, resp.StatusCode)
		}
	}
	if resp := post(token, ""); resp.StatusCode != http.StatusOK || resp.Close {
		t.Errorf("with the token: %d, close %v", resp.StatusCode, resp.Close)
	}
}

//go:build unix

package mcpserver

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// terminal is the Warn writer: what the person sees where sentinel mcp
// runs, with each consent code handed to the test as it is printed.
type terminal struct {
	mu    sync.Mutex
	text  strings.Builder
	codes chan string
}

var consentCodeLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`consent code: ([A-Z0-9]{5}-[A-Z0-9]{5})`) })

func (t *terminal) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.text.Write(b)
	for _, m := range consentCodeLine().FindAllStringSubmatch(string(b), -1) {
		t.codes <- m[1]
	}
	return len(b), nil
}

// oauthServer is a sentinel mcp server with [oauth] on loopback, as behind
// the person's tunnel.
type oauthServer struct {
	srv    *Server
	hs     *httptest.Server
	public string
	term   *terminal
	mu     sync.Mutex
	now    time.Time
}

func newOAuthServer(t *testing.T, f fixture) *oauthServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	o := &oauthServer{public: "http://" + ln.Addr().String(), term: &terminal{codes: make(chan string, 8)}, now: time.Now()}
	cfg := mustConfig(t, f.config("")+"\n[oauth]\npublic_url = \""+o.public+"\"\n")
	o.srv, err = New(cfg, Options{Transport: "http", Warn: o.term})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(o.srv.Close)
	o.srv.clock = func() time.Time { o.mu.Lock(); defer o.mu.Unlock(); return o.now }
	h, err := o.srv.HTTPHandler("")
	if err != nil {
		t.Fatal(err)
	}
	o.hs = &httptest.Server{Listener: ln, Config: &http.Server{Handler: h}}
	o.hs.Start()
	t.Cleanup(o.hs.Close)
	return o
}

// status is what a bare initialize with this bearer token gets.
func (o *oauthServer) status(t *testing.T, token string) (int, http.Header) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	req, _ := http.NewRequest("POST", o.public+MCPPath, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode, resp.Header
}

func chromium(t *testing.T) context.Context {
	t.Helper()
	exe, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("CI") == "true" { // .ci/run installs it: missing there is a failure, not a skip
			t.Fatal("chromium is not installed (apt-get install -y chromium): the consent page's browser test needs it")
		}
		t.Skip("chromium is not installed (apt-get install -y chromium): the consent page's browser test needs it")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.Flag("headless", "new"),
		chromedp.WSURLReadTimeout(90*time.Second)) // a loaded machine starts chromium slowly
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	ctx, cancel3 := context.WithTimeout(ctx, 120*time.Second) // a hang bound
	t.Cleanup(cancel3)
	if err := chromedp.Run(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

const hostileClientName = `<img src=x onerror="window.pwned=1">Claude` + "\u202e\x1b[2J"

// The go-sdk's OAuth client, from discovery (401, protected-resource and
// authorization-server metadata) through dynamic registration, the consent
// page in a real Chromium — where the person unticks tools and types the
// code from the terminal — and the token exchange, to tool calls: only the
// granted tools are listed and run. Then the access token is refused once
// it expires and once the person revokes the client.
func TestOAuthFromDiscoveryToToolCallThroughTheConsentPage(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	o := newOAuthServer(t, f)
	bctx := chromium(t)

	// Without a token: 401 naming the metadata, which names this server.
	st, hdr := o.status(t, "")
	if st != http.StatusUnauthorized || !strings.Contains(hdr.Get("WWW-Authenticate"), `resource_metadata="`+o.public+`/.well-known/oauth-protected-resource/mcp"`) {
		t.Fatalf("no token: %d %q", st, hdr.Get("WWW-Authenticate"))
	}
	resp, err := http.Get(o.public + "/.well-known/oauth-protected-resource/mcp")
	if err != nil {
		t.Fatal(err)
	}
	var prm oauthex.ProtectedResourceMetadata
	json.NewDecoder(resp.Body).Decode(&prm)
	resp.Body.Close()
	if prm.Resource != o.public+"/mcp" || !slices.Equal(prm.AuthorizationServers, []string{o.public}) {
		t.Fatalf("protected-resource metadata: %+v", prm)
	}

	callbacks := make(chan map[string]string, 1)
	cb := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/callback" {
			http.NotFound(w, r) // the browser's favicon
			return
		}
		q := r.URL.Query()
		callbacks <- map[string]string{"code": q.Get("code"), "state": q.Get("state"), "iss": q.Get("iss"), "error": q.Get("error")}
		w.Write([]byte("<p id=done>you can close this window</p>"))
	}))
	defer cb.Close()

	var shownName, shownPaths string
	var pwned bool
	fetch := func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		actions := []chromedp.Action{chromedp.Navigate(args.URL), chromedp.WaitVisible("#code", chromedp.ByID),
			chromedp.Text("#client-name", &shownName, chromedp.ByID), chromedp.Text("#paths", &shownPaths, chromedp.ByID)}
		for _, op := range Ops {
			if op != "read" && op != "list" {
				actions = append(actions, chromedp.Click(`input[name=tool][value="`+op+`"]`, chromedp.ByQuery))
			}
		}
		if err := chromedp.Run(bctx, actions...); err != nil {
			return nil, err
		}
		var code string
		select {
		case code = <-o.term.codes:
		case <-bctx.Done():
			return nil, bctx.Err()
		}
		if err := chromedp.Run(bctx, chromedp.SendKeys("#code", code, chromedp.ByID),
			chromedp.Evaluate(`window.pwned !== undefined`, &pwned),
			chromedp.Click("#allow", chromedp.ByID), chromedp.WaitVisible("#done", chromedp.ByID)); err != nil {
			return nil, err
		}
		got := <-callbacks
		return &auth.AuthorizationResult{Code: got["code"], State: got["state"], Iss: got["iss"]}, nil
	}
	handler, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName: hostileClientName, RedirectURIs: []string{cb.URL + "/callback"}, TokenEndpointAuthMethod: "none",
			GrantTypes: []string{"authorization_code", "refresh_token"}}},
		AuthorizationCodeFetcher: fetch,
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	tr := &mcp.StreamableClientTransport{Endpoint: o.public + MCPPath, OAuthHandler: handler, MaxRetries: -1}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t"}, nil).Connect(ctx, tr, nil)
	if err != nil {
		t.Fatalf("connect through OAuth: %v\nterminal:\n%s", err, o.term.text.String())
	}
	defer cs.Close()

	if shownName != textsafe.Line(hostileClientName) || pwned {
		t.Fatalf("the consent page showed the client's name as %q (pwned=%v)", shownName, pwned)
	}
	if !strings.Contains(shownPaths, f.rw+" (rw)") || !strings.Contains(shownPaths, f.ro+" (r)") {
		t.Fatalf("the consent page's paths: %q", shownPaths)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"list", "read"}) {
		t.Fatalf("tools/list shows %v, want the granted list and read", names)
	}
	mustAllow(t, cs, "read", map[string]any{"path": f.rw + "/notes.txt"})
	out := mustRefuse(t, cs, "exec", map[string]any{"command": "echo hi"}, ClassOpDisabled)
	if !strings.Contains(out, "oauth grant") {
		t.Fatalf("the refusal does not say why: %s", out)
	}
	if calls := auditCalls(t, o.srv); !slices.ContainsFunc(calls, func(c Call) bool { return c.Tool == "exec" && c.Rule == "oauth grant" && c.Decision == DecisionDeny }) {
		t.Fatalf("the refused call is not in the audit: %+v", calls)
	}

	// The token itself, as another program would use it.
	ts, _ := handler.TokenSource(ctx)
	tok, err := ts.Token()
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := o.status(t, tok.AccessToken); st != http.StatusOK {
		t.Fatalf("the access token: %d", st)
	}
	if st, _ := o.status(t, tok.AccessToken+"x"); st != http.StatusUnauthorized {
		t.Fatalf("a forged token: %d", st)
	}
	o.mu.Lock()
	o.now = o.now.Add(31 * time.Minute)
	o.mu.Unlock()
	if st, _ := o.status(t, tok.AccessToken); st != http.StatusUnauthorized {
		t.Fatalf("an expired token: %d", st)
	}
	o.mu.Lock()
	o.now = time.Now()
	o.mu.Unlock()
	if st, _ := o.status(t, tok.AccessToken); st != http.StatusOK {
		t.Fatalf("the token back in its time: %d", st)
	}
	store, err := OAuthClients(o.srv.cfg.File)
	if err != nil {
		t.Fatal(err)
	}
	list, err := store.Clients()
	if err != nil || len(list) != 1 || !slices.Equal(list[0].Granted, []string{"tool:read", "tool:list"}) {
		t.Fatalf("sentinel mcp clients would list %+v (%v)", list, err)
	}
	if err := store.Revoke(list[0].ID); err != nil {
		t.Fatal(err)
	}
	if st, _ := o.status(t, tok.AccessToken); st != http.StatusUnauthorized {
		t.Fatalf("a revoked client's token: %d", st)
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"path": f.rw + "/notes.txt"}}); err == nil {
		t.Fatal("the revoked client's session still calls tools")
	}
	if fi, err := os.Stat(store.Path()); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the state file: %v %v", fi, err)
	}
}

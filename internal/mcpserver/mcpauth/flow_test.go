package mcpauth

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/oauth2"
)

// env is an authorization server on loopback with a clock the test moves
// and the terminal's consent codes captured.
type env struct {
	t     *testing.T
	srv   *Server
	hs    *httptest.Server
	store *Store
	mu    sync.Mutex
	now   time.Time
	codes []Notice
}

func newEnv(t *testing.T) *env {
	e := &env{t: t, now: time.Now()}
	st, err := OpenStore(filepath.Join(t.TempDir(), "state", "oauth.json"))
	if err != nil {
		t.Fatal(err)
	}
	e.store = st
	mux := http.NewServeMux()
	e.hs = httptest.NewServer(mux)
	t.Cleanup(e.hs.Close)
	e.srv, err = New(Config{Issuer: e.hs.URL, Resource: e.hs.URL + "/mcp", Tools: []string{"read", "list", "exec"}, Paths: []string{"/srv/app (rw)"},
		Now:    func() time.Time { e.mu.Lock(); defer e.mu.Unlock(); return e.now },
		Notify: func(n Notice) { e.mu.Lock(); e.codes = append(e.codes, n); e.mu.Unlock() }}, st)
	if err != nil {
		t.Fatal(err)
	}
	e.srv.Mount(mux)
	return e
}

func (e *env) advance(d time.Duration) { e.mu.Lock(); e.now = e.now.Add(d); e.mu.Unlock() }

func (e *env) lastCode() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.codes) == 0 {
		e.t.Fatal("no consent code was printed")
	}
	return e.codes[len(e.codes)-1].Code
}

const redirect = "http://127.0.0.1:9/callback"

// client is a registered public client.
type client struct{ id, secret string }

func (e *env) register(meta string) (client, *http.Response) {
	resp, err := http.Post(e.hs.URL+PathRegister, "application/json", strings.NewReader(meta))
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
	}
	json.NewDecoder(resp.Body).Decode(&out)
	return client{out.ClientID, out.ClientSecret}, resp
}

func (e *env) publicClient() client {
	c, resp := e.register(`{"client_name":"Test client","redirect_uris":["` + redirect + `"],"token_endpoint_auth_method":"none"}`)
	if resp.StatusCode != http.StatusCreated || c.id == "" {
		e.t.Fatalf("register: %d", resp.StatusCode)
	}
	return c
}

var noFollow = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

var requestField = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`name="request" value="([^"]+)"`) })

// authorize opens the consent page (as the browser would) and answers it
// with the terminal's code; it returns the redirect's query.
func (e *env) authorize(c client, verifier string, extra url.Values, tools ...string) url.Values {
	e.t.Helper()
	q := url.Values{"response_type": {"code"}, "client_id": {c.id}, "redirect_uri": {redirect}, "state": {"st4te"},
		"code_challenge": {oauth2.S256ChallengeFromVerifier(verifier)}, "code_challenge_method": {"S256"}, "resource": {e.hs.URL + "/mcp"}}
	for k, v := range extra {
		q[k] = v
	}
	resp, err := noFollow.Get(e.hs.URL + PathAuthorize + "?" + q.Encode())
	if err != nil {
		e.t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode == http.StatusSeeOther {
		u, _ := url.Parse(resp.Header.Get("Location"))
		return u.Query()
	}
	m := requestField().FindStringSubmatch(string(body))
	if resp.StatusCode != http.StatusOK || m == nil {
		e.t.Fatalf("authorize: %d %s", resp.StatusCode, body)
	}
	return e.consent(m[1], e.lastCode(), tools)
}

func (e *env) consent(request, code string, tools []string) url.Values {
	e.t.Helper()
	form := url.Values{"request": {request}, "code": {code}, "decision": {"allow"}, "tool": tools}
	req, _ := http.NewRequest("POST", e.hs.URL+PathConsent, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	resp, err := noFollow.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		return url.Values{"status": {resp.Status}}
	}
	u, _ := url.Parse(resp.Header.Get("Location"))
	return u.Query()
}

// post is a form post to the token or revocation endpoint.
func (e *env) post(path string, form url.Values) (int, map[string]any) {
	e.t.Helper()
	resp, err := http.PostForm(e.hs.URL+path, form)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	out := map[string]any{}
	json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

func (e *env) exchange(c client, code, verifier string) (int, map[string]any) {
	return e.post(PathToken, url.Values{"grant_type": {"authorization_code"}, "client_id": {c.id}, "code": {code}, "redirect_uri": {redirect}, "code_verifier": {verifier}})
}

func (e *env) verify(token string) error {
	_, err := e.srv.Verify(e.t.Context(), token, nil)
	return err
}

func TestFlowIssuesScopedTokensAndRotatesRefresh(t *testing.T) {
	e := newEnv(t)
	c := e.publicClient()
	v := oauth2.GenerateVerifier()
	got := e.authorize(c, v, url.Values{"scope": {"tool:read tool:exec"}}, "read", "list")
	if got.Get("state") != "st4te" || got.Get("iss") != e.hs.URL || got.Get("code") == "" {
		t.Fatalf("the redirect: %v", got)
	}
	st, tok := e.exchange(c, got.Get("code"), v)
	if st != 200 || tok["scope"] != "tool:read tool:list" || tok["token_type"] != "Bearer" {
		t.Fatalf("token: %d %v", st, tok)
	}
	info, err := e.srv.Verify(t.Context(), tok["access_token"].(string), nil)
	if err != nil || strings.Join(GrantedTools(info), ",") != "read,list" || info.UserID != c.id {
		t.Fatalf("verify: %v %+v", err, info)
	}
	// The state file holds no token, only hashes, and only its owner reads it.
	raw, _ := os.ReadFile(e.store.Path())
	if strings.Contains(string(raw), tok["access_token"].(string)) || strings.Contains(string(raw), tok["refresh_token"].(string)) {
		t.Fatal("a token is in the state file")
	}
	if fi, _ := os.Stat(e.store.Path()); fi.Mode().Perm() != 0o600 {
		t.Fatalf("state file mode %v", fi.Mode())
	}
	// Refresh rotates: the new pair works, the old refresh token does not,
	// and presenting it again ends the grant.
	old := tok["refresh_token"].(string)
	st, tok2 := e.post(PathToken, url.Values{"grant_type": {"refresh_token"}, "client_id": {c.id}, "refresh_token": {old}})
	if st != 200 || tok2["refresh_token"] == old {
		t.Fatalf("refresh: %d %v", st, tok2)
	}
	if err := e.verify(tok2["access_token"].(string)); err != nil {
		t.Fatalf("the refreshed token: %v", err)
	}
	if st, _ := e.post(PathToken, url.Values{"grant_type": {"refresh_token"}, "client_id": {c.id}, "refresh_token": {old}}); st != 400 {
		t.Fatalf("a rotated-out refresh token was taken: %d", st)
	}
	if err := e.verify(tok2["access_token"].(string)); err == nil {
		t.Fatal("the grant survived a replayed refresh token")
	}
	if st, _ := e.post(PathToken, url.Values{"grant_type": {"refresh_token"}, "client_id": {c.id}, "refresh_token": {tok2["refresh_token"].(string)}}); st != 400 {
		t.Fatal("the grant's newest refresh token still works after the replay")
	}
}

func TestTokensExpireAndRevoke(t *testing.T) {
	e := newEnv(t)
	c := e.publicClient()
	v := oauth2.GenerateVerifier()
	_, tok := e.exchange(c, e.authorize(c, v, nil, "read").Get("code"), v)
	access := tok["access_token"].(string)
	if err := e.verify(access); err != nil {
		t.Fatal(err)
	}
	e.advance(DefaultAccessTTL + time.Second)
	if err := e.verify(access); err == nil {
		t.Fatal("an expired access token was taken")
	}
	// Revocation by the client (RFC 7009) ends access and refresh.
	_, tok = e.post(PathToken, url.Values{"grant_type": {"refresh_token"}, "client_id": {c.id}, "refresh_token": {tok["refresh_token"].(string)}})
	access = tok["access_token"].(string)
	if st, _ := e.post(PathRevoke, url.Values{"client_id": {c.id}, "token": {access}}); st != 200 {
		t.Fatalf("revoke: %d", st)
	}
	if err := e.verify(access); err == nil {
		t.Fatal("a revoked access token was taken")
	}
	if st, _ := e.post(PathToken, url.Values{"grant_type": {"refresh_token"}, "client_id": {c.id}, "refresh_token": {tok["refresh_token"].(string)}}); st != 400 {
		t.Fatal("a revoked grant's refresh token was taken")
	}
	// Revocation by the person (sentinel mcp clients --revoke), through the
	// file, reaches the running server.
	_, tok = e.exchange(c, e.authorize(c, v, nil, "read").Get("code"), v)
	other, err := OpenStore(e.store.Path())
	if err != nil {
		t.Fatal(err)
	}
	if err := other.Revoke(c.id); err != nil {
		t.Fatal(err)
	}
	if err := e.verify(tok["access_token"].(string)); err == nil {
		t.Fatal("a token of a client the person revoked was taken")
	}
}

func TestAnotherClientsCodeAndTokensAreRefused(t *testing.T) {
	e := newEnv(t)
	a, b := e.publicClient(), e.publicClient()
	v := oauth2.GenerateVerifier()
	code := e.authorize(a, v, nil, "read").Get("code")
	if st, out := e.exchange(b, code, v); st != 400 || out["error"] != "invalid_grant" {
		t.Fatalf("b exchanged a's code: %d %v", st, out)
	}
	code = e.authorize(a, v, nil, "read").Get("code")
	_, tok := e.exchange(a, code, v)
	if st, _ := e.post(PathToken, url.Values{"grant_type": {"refresh_token"}, "client_id": {b.id}, "refresh_token": {tok["refresh_token"].(string)}}); st != 400 {
		t.Fatal("b refreshed with a's refresh token")
	}
	e.post(PathRevoke, url.Values{"client_id": {b.id}, "token": {tok["access_token"].(string)}})
	if err := e.verify(tok["access_token"].(string)); err != nil {
		t.Fatalf("b revoked a's token: %v", err)
	}
	// A confidential client needs its secret.
	conf, resp := e.register(`{"client_name":"Conf","redirect_uris":["https://example.test/cb"],"token_endpoint_auth_method":"client_secret_post"}`)
	if resp.StatusCode != 201 || conf.secret == "" {
		t.Fatalf("confidential registration: %d", resp.StatusCode)
	}
	if st, _ := e.post(PathToken, url.Values{"grant_type": {"refresh_token"}, "client_id": {conf.id}, "client_secret": {"wrong"}, "refresh_token": {"x"}}); st != 401 {
		t.Fatalf("a wrong client secret: %d", st)
	}
}

func TestPKCEAndRedirectAreEnforced(t *testing.T) {
	e := newEnv(t)
	c := e.publicClient()
	v := oauth2.GenerateVerifier()
	code := e.authorize(c, v, nil, "read").Get("code")
	if st, out := e.exchange(c, code, oauth2.GenerateVerifier()); st != 400 || !strings.Contains(out["error_description"].(string), "PKCE") {
		t.Fatalf("a wrong verifier: %d %v", st, out)
	}
	if st, _ := e.exchange(c, code, v); st != 400 {
		t.Fatal("a code survived a wrong verifier")
	}
	// No PKCE, or plain: refused back to the client.
	for _, q := range []url.Values{{"code_challenge": {""}}, {"code_challenge_method": {"plain"}, "code_challenge": {v}}} {
		if got := e.authorize(c, v, q); got.Get("error") != "invalid_request" {
			t.Fatalf("authorize %v: %v", q, got)
		}
	}
	// A redirect the client did not register: an error page, never a redirect.
	for _, bad := range []string{"http://127.0.0.1:9/other", "https://evil.example/callback"} {
		q := url.Values{"response_type": {"code"}, "client_id": {c.id}, "redirect_uri": {bad}, "code_challenge": {oauth2.S256ChallengeFromVerifier(v)}, "code_challenge_method": {"S256"}}
		resp, err := noFollow.Get(e.hs.URL + PathAuthorize + "?" + q.Encode())
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 400 || resp.Header.Get("Location") != "" {
			t.Fatalf("redirect_uri %s: %d %s", bad, resp.StatusCode, resp.Header.Get("Location"))
		}
	}
	// A code exchanged with another redirect_uri.
	code = e.authorize(c, v, nil, "read").Get("code")
	if st, _ := e.post(PathToken, url.Values{"grant_type": {"authorization_code"}, "client_id": {c.id}, "code": {code}, "redirect_uri": {"http://127.0.0.1:9/other"}, "code_verifier": {v}}); st != 400 {
		t.Fatal("a code was exchanged for another redirect_uri")
	}
	// Registration refuses redirects that are not redirects.
	for _, u := range []string{"javascript:alert(1)", "http://evil.example/cb", "data:text/html,x", "https://a.example/cb#frag"} {
		if _, resp := e.register(`{"redirect_uris":["` + u + `"],"token_endpoint_auth_method":"none"}`); resp.StatusCode != 400 {
			t.Fatalf("registered redirect %s: %d", u, resp.StatusCode)
		}
	}
}

func TestConsentNeedsTheTerminalCode(t *testing.T) {
	e := newEnv(t)
	c := e.publicClient()
	v := oauth2.GenerateVerifier()
	q := url.Values{"response_type": {"code"}, "client_id": {c.id}, "redirect_uri": {redirect}, "state": {"s"}, "code_challenge": {oauth2.S256ChallengeFromVerifier(v)}, "code_challenge_method": {"S256"}}
	resp, err := http.Get(e.hs.URL + PathAuthorize + "?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	request := requestField().FindStringSubmatch(string(body))[1]
	if strings.Contains(string(body), normCode(e.lastCode())) {
		t.Fatal("the consent page shows the code")
	}
	for i := 0; i < consentTries-1; i++ {
		if got := e.consent(request, "AAAAA-AAAAA", []string{"read"}); got.Get("code") != "" {
			t.Fatal("a wrong code consented")
		}
	}
	if got := e.consent(request, "AAAAA-AAAAA", []string{"read"}); got.Get("status") != "403 Forbidden" {
		t.Fatalf("the last try: %v", got)
	}
	// The request is gone after too many tries: even the right code is late.
	if got := e.consent(request, e.lastCode(), []string{"read"}); got.Get("code") != "" {
		t.Fatal("the right code worked after the tries ran out")
	}
	// A code expires with its request.
	resp, _ = http.Get(e.hs.URL + PathAuthorize + "?" + q.Encode())
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	request = requestField().FindStringSubmatch(string(body))[1]
	e.advance(consentTTL + time.Second)
	if got := e.consent(request, e.lastCode(), []string{"read"}); got.Get("code") != "" {
		t.Fatal("an expired consent request was answered")
	}
}

// A page on another site cannot post the consent form for the person.
func TestConsentRefusesACrossSitePost(t *testing.T) {
	e := newEnv(t)
	c := e.publicClient()
	v := oauth2.GenerateVerifier()
	q := url.Values{"response_type": {"code"}, "client_id": {c.id}, "redirect_uri": {redirect}, "code_challenge": {oauth2.S256ChallengeFromVerifier(v)}, "code_challenge_method": {"S256"}}
	resp, err := http.Get(e.hs.URL + PathAuthorize + "?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.Header.Get("X-Frame-Options") != "DENY" || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
		t.Fatalf("the consent page can be framed: %v", resp.Header)
	}
	form := url.Values{"request": {requestField().FindStringSubmatch(string(body))[1]}, "code": {e.lastCode()}, "decision": {"allow"}, "tool": {"read"}}
	req, _ := http.NewRequest("POST", e.hs.URL+PathConsent, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	resp, err = noFollow.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("a cross-site consent: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
}

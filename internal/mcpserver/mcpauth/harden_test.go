package mcpauth

import (
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/oauth2"
)

// TestRegistrationFloodLocksNoOneOut: a flood of registrations fills the
// table, yet every registration is taken, the person's granted client keeps
// working, and a client on its consent page mid-flood can still be granted.
func TestRegistrationFloodLocksNoOneOut(t *testing.T) {
	e := newEnv(t)
	granted := e.publicClient()
	v := oauth2.GenerateVerifier()
	_, tok := e.exchange(granted, e.authorize(granted, v, nil, "read").Get("code"), v)
	access, _ := tok["access_token"].(string)
	if access == "" {
		t.Fatalf("no token: %v", tok)
	}

	// Another client is on its consent page when the flood comes.
	asking := e.publicClient()
	v2 := oauth2.GenerateVerifier()
	q := url.Values{"response_type": {"code"}, "client_id": {asking.id}, "redirect_uri": {redirect}, "state": {"s"},
		"code_challenge": {oauth2.S256ChallengeFromVerifier(v2)}, "code_challenge_method": {"S256"}, "resource": {e.hs.URL + "/mcp"}}
	resp, err := noFollow.Get(e.hs.URL + PathAuthorize + "?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := requestField().FindStringSubmatch(string(page))
	if m == nil {
		t.Fatalf("consent page: %d %s", resp.StatusCode, page)
	}
	code := e.lastCode()

	for i := range 3 * maxClients {
		c, resp := e.register(`{"client_name":"flood ` + strconv.Itoa(i) + `","redirect_uris":["` + redirect + `"],"token_endpoint_auth_method":"none"}`)
		if resp.StatusCode != http.StatusCreated || c.id == "" {
			t.Fatalf("registration %d in the flood was refused: %d", i, resp.StatusCode)
		}
	}
	if kept, err := e.store.Clients(); err != nil || len(kept) > maxClients {
		t.Fatalf("%d clients kept, over the bound of %d (%v)", len(kept), maxClients, err)
	}
	if err := e.verify(access); err != nil {
		t.Fatalf("the granted client was pushed out by the flood: %v", err)
	}
	got := e.consent(m[1], code, []string{"list"})
	if got.Get("code") == "" {
		t.Fatalf("the client on its consent page was pushed out by the flood: %v", got)
	}
	if st, _ := e.exchange(asking, got.Get("code"), v2); st != 200 {
		t.Fatalf("its exchange: %d", st)
	}
	// And the person's next new client still registers.
	e.publicClient()
}

// TestRefreshNarrowsNeverWidens: a refresh that asks for fewer scopes gets
// an access token with only those; one that asks for a scope the grant
// lacks gets nothing; the refresh token keeps the whole grant.
func TestRefreshNarrowsNeverWidens(t *testing.T) {
	e := newEnv(t)
	c := e.publicClient()
	v := oauth2.GenerateVerifier()
	_, tok := e.exchange(c, e.authorize(c, v, nil, "read", "list").Get("code"), v)
	refresh := func(scope string) (int, map[string]any) {
		form := url.Values{"grant_type": {"refresh_token"}, "client_id": {c.id}, "refresh_token": {tok["refresh_token"].(string)}}
		if scope != "" {
			form.Set("scope", scope)
		}
		st, out := e.post(PathToken, form)
		if st == 200 {
			tok = out
		}
		return st, out
	}
	tools := func(access any) string {
		t.Helper()
		info, err := e.srv.Verify(t.Context(), access.(string), nil)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(GrantedTools(info), ",")
	}
	if st, out := refresh("tool:read"); st != 200 || out["scope"] != "tool:read" || tools(out["access_token"]) != "read" {
		t.Fatalf("a narrower refresh: %d %v", st, out)
	}
	if st, _ := refresh("tool:read tool:exec"); st != 400 {
		t.Fatalf("a refresh asking for a scope never granted was answered: %d", st)
	}
	if st, out := refresh(""); st != 200 || out["scope"] != "tool:read tool:list" || tools(out["access_token"]) != "read,list" {
		t.Fatalf("the refresh token lost the grant's scope: %d %v", st, out)
	}
}

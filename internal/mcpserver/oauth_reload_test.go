//go:build unix

package mcpserver

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

var consentRequest = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`name="request" value="([^"]+)"`) })

const reloadRedirect = "http://127.0.0.1:9/callback"

var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// oauthRegister registers a public client and returns its id.
func (o *oauthServer) register(t *testing.T) string {
	t.Helper()
	resp, err := http.Post(o.public+"/oauth/register", "application/json",
		strings.NewReader(`{"client_name":"reload test","redirect_uris":["`+reloadRedirect+`"],"token_endpoint_auth_method":"none"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		ClientID string `json:"client_id"`
	}
	json.NewDecoder(resp.Body).Decode(&out)
	if resp.StatusCode != http.StatusCreated || out.ClientID == "" {
		t.Fatalf("register: %d", resp.StatusCode)
	}
	return out.ClientID
}

// consentPage opens the consent page for client as a browser would; it
// returns the page and the request id.
func (o *oauthServer) consentPage(t *testing.T, client, verifier string) (string, string) {
	t.Helper()
	q := url.Values{"response_type": {"code"}, "client_id": {client}, "redirect_uri": {reloadRedirect}, "state": {"s"},
		"code_challenge": {oauth2.S256ChallengeFromVerifier(verifier)}, "code_challenge_method": {"S256"}, "resource": {o.public + MCPPath}}
	resp, err := noRedirects.Get(o.public + "/oauth/authorize?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := consentRequest().FindStringSubmatch(string(body))
	if resp.StatusCode != http.StatusOK || m == nil {
		t.Fatalf("authorize: %d %s", resp.StatusCode, body)
	}
	return string(body), m[1]
}

// grant goes through the consent page (with the terminal's code) and the
// token endpoint; it returns the access token.
func (o *oauthServer) grant(t *testing.T, client string, tools ...string) string {
	t.Helper()
	verifier := oauth2.GenerateVerifier()
	_, request := o.consentPage(t, client, verifier)
	var code string
	select {
	case code = <-o.term.codes:
	case <-time.After(30 * time.Second): // a hang bound
		t.Fatal("no consent code in the terminal")
	}
	form := url.Values{"request": {request}, "code": {code}, "decision": {"allow"}, "tool": tools}
	req, _ := http.NewRequest("POST", o.public+"/oauth/consent", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	resp, err := noRedirects.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusSeeOther || loc.Query().Get("code") == "" {
		t.Fatalf("consent: %d %s", resp.StatusCode, loc)
	}
	tr, err := http.PostForm(o.public+"/oauth/token", url.Values{"grant_type": {"authorization_code"}, "client_id": {client},
		"code": {loc.Query().Get("code")}, "redirect_uri": {reloadRedirect}, "code_verifier": {verifier}})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Body.Close()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	json.NewDecoder(tr.Body).Decode(&tok)
	if tr.StatusCode != http.StatusOK || tok.AccessToken == "" {
		t.Fatalf("token: %d", tr.StatusCode)
	}
	return tok.AccessToken
}

func (o *oauthServer) connect(t *testing.T, token string) *mcp.ClientSession {
	t.Helper()
	tr := &mcp.StreamableClientTransport{Endpoint: o.public + MCPPath, HTTPClient: &http.Client{Transport: bearer{token}}, MaxRetries: -1}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t"}, nil).Connect(t.Context(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func listedTools(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	return names
}

// TestOAuthAfterAReloadUsesTheCurrentConfig: after a reload the consent
// page and the metadata show the new paths and tools, and a token granted
// before it reaches neither a removed path nor a tool the reload disabled.
func TestOAuthAfterAReloadUsesTheCurrentConfig(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	o := newOAuthServer(t, f)
	client := o.register(t)
	page, _ := o.consentPage(t, client, oauth2.GenerateVerifier())
	<-o.term.codes
	if !strings.Contains(page, f.ro) || !strings.Contains(page, `value="list"`) {
		t.Fatalf("the first consent page lacks %s or the list tool", f.ro)
	}
	token := o.grant(t, client, "read", "list")
	cs := o.connect(t, token)
	mustAllow(t, cs, "read", map[string]any{"path": filepath.Join(f.ro, "app.log")})
	mustAllow(t, cs, "list", map[string]any{"path": f.ro})

	// The reload: the r path goes, a new one comes, list is disabled.
	added := filepath.Join(filepath.Dir(f.ro), "added")
	write(t, filepath.Join(added, "new.txt"), "NEWPATH\n")
	cfg := `allowed_commands = ["ls"]
disabled_ops = ["list"]

[[paths]]
path = "` + f.rw + `"
access = "rw"

[[paths]]
path = "` + added + `"
access = "r"

[oauth]
public_url = "` + o.public + `"
`
	if err := os.WriteFile(o.srv.cfg.File, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := o.srv.Reload(); err != nil {
		t.Fatal(err)
	}

	// The old token: the removed path and the disabled tool are gone.
	mustRefuse(t, cs, "read", map[string]any{"path": filepath.Join(f.ro, "app.log")}, ClassPathNotAllowed)
	if txt := mustAllow(t, cs, "read", map[string]any{"path": filepath.Join(added, "new.txt")}); !strings.Contains(txt, "NEWPATH") {
		t.Fatalf("the added path: %s", txt)
	}
	mustRefuse(t, cs, "list", map[string]any{"path": f.rw}, ClassOpDisabled)
	if names := listedTools(t, cs); slices.Contains(names, "list") || !slices.Contains(names, "read") {
		t.Fatalf("tools/list for the old grant after the reload: %v", names)
	}

	// The page and the metadata are the current generation's.
	page, _ = o.consentPage(t, client, oauth2.GenerateVerifier())
	<-o.term.codes
	if strings.Contains(page, f.ro) || !strings.Contains(page, added) {
		t.Fatalf("the consent page after the reload still shows the start-up paths (want %s, not %s)", added, f.ro)
	}
	if strings.Contains(page, `value="list"`) || !strings.Contains(page, `value="read"`) {
		t.Fatal("the consent page after the reload offers the disabled list tool")
	}
	resp, err := http.Get(o.public + prmPathMCP)
	if err != nil {
		t.Fatal(err)
	}
	var prm oauthex.ProtectedResourceMetadata
	json.NewDecoder(resp.Body).Decode(&prm)
	resp.Body.Close()
	if slices.Contains(prm.ScopesSupported, "tool:list") || !slices.Contains(prm.ScopesSupported, "tool:read") {
		t.Fatalf("protected-resource metadata scopes after the reload: %v", prm.ScopesSupported)
	}
	// A consent that names the disabled tool does not grant it.
	tok2 := o.grant(t, client, "read", "list")
	if names := listedTools(t, o.connect(t, tok2)); slices.Contains(names, "list") {
		t.Fatalf("a grant made after the reload lists %v", names)
	}
}

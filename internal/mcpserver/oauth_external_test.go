//go:build unix

package mcpserver

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// idp is a person's identity provider on loopback TLS: OpenID discovery
// and a JWKS with one EC signing key.
type idp struct {
	hs   *httptest.Server
	key  *ecdsa.PrivateKey
	down atomic.Bool
}

func newIDP(t *testing.T) *idp {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	p := &idp{key: key}
	mux := http.NewServeMux()
	p.hs = httptest.NewTLSServer(mux)
	t.Cleanup(p.hs.Close)
	mux.HandleFunc("/.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]string{"issuer": p.hs.URL, "jwks_uri": p.hs.URL + "/keys"})
	})
	mux.HandleFunc("/keys", func(w http.ResponseWriter, r *http.Request) {
		if p.down.Load() {
			http.Error(w, "down", http.StatusBadGateway)
			return
		}
		json.NewEncoder(w).Encode(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &key.PublicKey, KeyID: "k1", Algorithm: "ES256", Use: "sig"}}})
	})
	return p
}

// token is an access token for aud granting scope.
func (p *idp) token(t *testing.T, aud, scope string) string {
	t.Helper()
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: p.key}, (&jose.SignerOptions{}).WithType("at+jwt").WithHeader("kid", "k1"))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	tok, err := jwt.Signed(s).Claims(map[string]any{"iss": p.hs.URL, "aud": aud, "sub": "me", "scope": scope,
		"exp": now.Add(5 * time.Minute).Unix(), "iat": now.Unix()}).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// externalServer is sentinel mcp with [oauth] issuer = the idp.
func externalServer(t *testing.T, f fixture, p *idp) (public string, warn *syncBuffer) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	public = "http://" + ln.Addr().String()
	cfg := mustConfig(t, f.config("")+"\n[oauth]\npublic_url = \""+public+"\"\nissuer = \""+p.hs.URL+"\"\n")
	warn = &syncBuffer{}
	srv, err := New(cfg, Options{Transport: "http", Warn: warn, issuerClient: p.hs.Client()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	h, err := srv.HTTPHandler("")
	if err != nil {
		t.Fatal(err)
	}
	hs := &httptest.Server{Listener: ln, Config: &http.Server{Handler: h}}
	hs.Start()
	t.Cleanup(hs.Close)
	return public, warn
}

func connectWith(t *testing.T, endpoint, token string) (*mcp.ClientSession, error) {
	tr := &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: &http.Client{Transport: bearer{token}}, MaxRetries: -1}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t"}, nil).Connect(t.Context(), tr, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

func TestOAuthWithAnExternalIssuer(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	p := newIDP(t)
	public, _ := externalServer(t, f, p)
	endpoint := public + MCPPath

	// The metadata names the issuer; the built-in server is off.
	resp, err := http.Get(public + prmPathMCP)
	if err != nil {
		t.Fatal(err)
	}
	var prm oauthex.ProtectedResourceMetadata
	json.NewDecoder(resp.Body).Decode(&prm)
	resp.Body.Close()
	if prm.Resource != endpoint || !slices.Equal(prm.AuthorizationServers, []string{p.hs.URL}) || !slices.Contains(prm.ScopesSupported, "tool:read") {
		t.Fatalf("protected-resource metadata: %+v", prm)
	}
	for _, path := range []string{"/.well-known/oauth-authorization-server", "/oauth/register", "/oauth/authorize"} {
		resp, err := http.Get(public + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound && resp.StatusCode != http.StatusMethodNotAllowed {
			t.Fatalf("%s is served (%d) with an external issuer", path, resp.StatusCode)
		}
	}

	// The issuer's token for this endpoint reaches the granted tool only.
	cs, err := connectWith(t, endpoint, p.token(t, endpoint, "openid tool:read"))
	if err != nil {
		t.Fatal(err)
	}
	if txt := mustAllow(t, cs, "read", map[string]any{"path": filepath.Join(f.ro, "app.log")}); !strings.Contains(txt, "boot ok") {
		t.Fatalf("read: %s", txt)
	}
	mustRefuse(t, cs, "list", map[string]any{"path": f.ro}, ClassOpDisabled)
	if names := listedTools(t, cs); !slices.Equal(names, []string{"read"}) {
		t.Fatalf("tools/list: %v", names)
	}

	// Refused: no token, another audience, no tool scope, a made-up token.
	for name, tok := range map[string]string{
		"no token":      "",
		"other aud":     p.token(t, "https://other.example/mcp", "tool:read"),
		"no tool scope": p.token(t, endpoint, "openid profile"),
		"opaque":        "sat_0123456789abcdef",
	} {
		if _, err := connectWith(t, endpoint, tok); err == nil {
			t.Errorf("%s: connected", name)
		}
	}
}

// TestOAuthExternalIssuerDownFailsClosed: keys that cannot be fetched at
// the start are said, and no token gets in.
func TestOAuthExternalIssuerDownFailsClosed(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	p := newIDP(t)
	p.down.Store(true)
	public, warn := externalServer(t, f, p)
	if !strings.Contains(warn.String(), "every token is refused") {
		t.Fatalf("the start did not say the keys are missing: %q", warn.String())
	}
	if _, err := connectWith(t, public+MCPPath, p.token(t, public+MCPPath, "tool:read")); err == nil {
		t.Fatal("a token got in while the issuer's keys could not be fetched")
	}
}

func TestOAuthExternalIssuerConfig(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for extra, want := range map[string]string{
		`issuer = "http://login.example.com"`:                                     "use https",
		`issuer = "https://login.example.com?x=1"`:                                "without query",
		`issuer = "https://login.example.com"` + "\n" + `access_token_ttl = "5m"`: "remove access_token_ttl",
		`issuer = "https://login.example.com"` + "\n" + `jwks_url = "ftp://x/k"`:  "jwks_url",
	} {
		p := filepath.Join(t.TempDir(), "mcp.toml")
		write(t, p, f.config("")+"\n[oauth]\npublic_url = \"https://mcp.example.com\"\n"+extra+"\n")
		if _, err := LoadConfig(p); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: want an error naming %q, got %v", extra, want, err)
		}
	}
}

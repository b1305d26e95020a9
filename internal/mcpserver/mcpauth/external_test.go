package mcpauth

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// fakeIssuer is an identity provider on loopback TLS: OpenID discovery and
// a JWKS with an EC and an RSA signing key.
type fakeIssuer struct {
	hs      *httptest.Server
	ec      *ecdsa.PrivateKey
	rsa     *rsa.PrivateKey
	jwksOff atomic.Bool
	fetches atomic.Int32
}

func newFakeIssuer(t *testing.T) *fakeIssuer {
	t.Helper()
	f := &fakeIssuer{}
	var err error
	if f.ec, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader); err != nil {
		t.Fatal(err)
	}
	if f.rsa, err = rsa.GenerateKey(rand.Reader, 2048); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	f.hs = httptest.NewTLSServer(mux)
	t.Cleanup(f.hs.Close)
	mux.HandleFunc("/.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]string{"issuer": f.hs.URL, "jwks_uri": f.hs.URL + "/jwks"})
	})
	mux.HandleFunc("/jwks", func(w http.ResponseWriter, r *http.Request) {
		f.fetches.Add(1)
		if f.jwksOff.Load() {
			http.Error(w, "down", http.StatusInternalServerError)
			return
		}
		json.NewEncoder(w).Encode(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{
			{Key: &f.ec.PublicKey, KeyID: "ec1", Algorithm: "ES256", Use: "sig"},
			{Key: &f.rsa.PublicKey, KeyID: "rsa1", Algorithm: "RS256", Use: "sig"},
		}})
	})
	return f
}

// claims are a good token's claims for aud.
func (f *fakeIssuer) claims(aud string) map[string]any { return f.claimsAt(aud, time.Now()) }

func (f *fakeIssuer) claimsAt(aud string, now time.Time) map[string]any {
	return map[string]any{"iss": f.hs.URL, "aud": aud, "sub": "person@example", "exp": now.Add(5 * time.Minute).Unix(),
		"nbf": now.Add(-time.Minute).Unix(), "iat": now.Unix(), "scope": "openid tool:read tool:list tool:nope"}
}

func sign(t *testing.T, alg jose.SignatureAlgorithm, key any, kid string, claims map[string]any) string {
	t.Helper()
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: key}, (&jose.SignerOptions{}).WithType("at+jwt").WithHeader("kid", kid))
	if err != nil {
		t.Fatal(err)
	}
	tok, err := jwt.Signed(s).Claims(claims).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func TestExternalIssuerTokens(t *testing.T) {
	f := newFakeIssuer(t)
	const aud = "https://mcp.example/mcp"
	var mu sync.Mutex
	now := time.Now()
	e, err := NewExternal(ExternalConfig{Issuer: f.hs.URL, Audience: aud, Tools: func() []string { return []string{"read", "list", "exec"} },
		Client: f.hs.Client(), Now: func() time.Time { mu.Lock(); defer mu.Unlock(); return now }})
	if err != nil {
		t.Fatal(err)
	}
	good := f.claims(aud)
	info, err := e.Verify(t.Context(), sign(t, jose.ES256, f.ec, "ec1", good), nil)
	if err != nil || strings.Join(info.Scopes, " ") != "tool:read tool:list" || info.UserID != "person@example" {
		t.Fatalf("a good token: %v %+v", err, info)
	}
	if _, err := e.Verify(t.Context(), sign(t, jose.RS256, f.rsa, "rsa1", good), nil); err != nil {
		t.Fatalf("a good RS256 token: %v", err)
	}

	with := func(k string, v any) map[string]any {
		c := f.claims(aud)
		if v == nil {
			delete(c, k)
		} else {
			c[k] = v
		}
		return c
	}
	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	pubDER, _ := x509.MarshalPKIXPublicKey(&f.rsa.PublicKey)
	pubPEM := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER})
	b64 := func(v any) string { b, _ := json.Marshal(v); return base64.RawURLEncoding.EncodeToString(b) }
	refused := map[string]string{
		"wrong iss":       sign(t, jose.ES256, f.ec, "ec1", with("iss", "https://evil.example")),
		"wrong aud":       sign(t, jose.ES256, f.ec, "ec1", with("aud", "https://other.example/mcp")),
		"expired":         sign(t, jose.ES256, f.ec, "ec1", with("exp", time.Now().Add(-5*time.Minute).Unix())),
		"not yet valid":   sign(t, jose.ES256, f.ec, "ec1", with("nbf", time.Now().Add(5*time.Minute).Unix())),
		"no exp":          sign(t, jose.ES256, f.ec, "ec1", with("exp", nil)),
		"wrong key":       sign(t, jose.ES256, other, "ec1", good),
		"unknown kid":     sign(t, jose.ES256, other, "ec9", good),
		"key of the rsa":  sign(t, jose.ES256, f.ec, "rsa1", good),
		"missing scope":   sign(t, jose.ES256, f.ec, "ec1", with("scope", "openid profile")),
		"HS256 with pub":  sign(t, jose.HS256, pubPEM, "rsa1", good),
		"HS256 with der":  sign(t, jose.HS256, pubDER, "rsa1", good),
		"alg none":        b64(map[string]string{"alg": "none", "kid": "ec1"}) + "." + b64(good) + ".",
		"alg none no sig": b64(map[string]string{"alg": "none", "kid": "ec1"}) + "." + b64(good),
		"not a jwt":       "sat_0123456789",
	}
	for name, tok := range refused {
		if info, err := e.Verify(t.Context(), tok, nil); err == nil {
			t.Errorf("%s: accepted (%+v)", name, info)
		}
	}
}

// TestExternalIssuerFailsClosedWithoutKeys: no JWKS, no token; the keys are
// fetched again (not more often than keysRefetch) once the issuer is back.
func TestExternalIssuerFailsClosedWithoutKeys(t *testing.T) {
	f := newFakeIssuer(t)
	f.jwksOff.Store(true)
	const aud = "https://mcp.example/mcp"
	var mu sync.Mutex
	now := time.Now()
	e, err := NewExternal(ExternalConfig{Issuer: f.hs.URL, Audience: aud, Tools: func() []string { return []string{"read"} },
		Client: f.hs.Client(), Now: func() time.Time { mu.Lock(); defer mu.Unlock(); return now }})
	if err == nil {
		t.Fatal("a JWKS that cannot be fetched was not reported")
	}
	tok := sign(t, jose.ES256, f.ec, "ec1", f.claims(aud))
	if _, err := e.Verify(t.Context(), tok, nil); err == nil {
		t.Fatal("a token was accepted with no keys")
	}
	f.jwksOff.Store(false)
	before := f.fetches.Load()
	if _, err := e.Verify(t.Context(), tok, nil); err == nil || f.fetches.Load() != before {
		t.Fatalf("the keys were fetched again within %s (err %v)", keysRefetch, err)
	}
	mu.Lock()
	now = now.Add(keysRefetch)
	mu.Unlock()
	if _, err := e.Verify(t.Context(), tok, nil); err != nil {
		t.Fatalf("the issuer is back, the token is still refused: %v", err)
	}
	// Keys older than keysStale while the issuer is down: refused again.
	f.jwksOff.Store(true)
	mu.Lock()
	now = now.Add(keysStale + time.Minute)
	later := now
	mu.Unlock()
	if _, err := e.Verify(t.Context(), sign(t, jose.ES256, f.ec, "ec1", f.claimsAt(aud, later)), nil); err == nil {
		t.Fatal("keys a day old were used while the issuer could not be reached")
	}
}

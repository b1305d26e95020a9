package mcpauth

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// rotatingIssuer serves a JWKS that the test changes; a fetch waits while
// hold is set.
type rotatingIssuer struct {
	hs   *httptest.Server
	keys atomic.Pointer[jose.JSONWebKeySet]
	hold atomic.Pointer[chan struct{}]
	// started is told of each fetch that waits on hold.
	started chan struct{}
}

// endsTracked marks ended when a fetch returns to the client after armed.
type endsTracked struct {
	base         http.RoundTripper
	armed, ended *atomic.Bool
}

func (e endsTracked) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := e.base.RoundTrip(r)
	if e.armed.Load() {
		e.ended.Store(true)
	}
	return resp, err
}

func newRotatingIssuer(t *testing.T, k *ecdsa.PrivateKey, kid string) *rotatingIssuer {
	r := &rotatingIssuer{started: make(chan struct{}, 8)}
	r.keys.Store(&jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &k.PublicKey, KeyID: kid, Algorithm: "ES256", Use: "sig"}}})
	r.hs = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if h := r.hold.Load(); h != nil {
			r.started <- struct{}{}
			<-*h
		}
		json.NewEncoder(w).Encode(r.keys.Load())
	}))
	t.Cleanup(r.hs.Close)
	return r
}

func (r *rotatingIssuer) add(k *ecdsa.PrivateKey, kid string) {
	set := *r.keys.Load()
	set.Keys = append(set.Keys, jose.JSONWebKey{Key: &k.PublicKey, KeyID: kid, Algorithm: "ES256", Use: "sig"})
	r.keys.Store(&set)
}

// A token naming an unknown key sent with an already cancelled request
// must not spend the refetch: the fetch it starts still finishes, and the
// rotated key is found for the next good token.
func TestExternalIssuerRefreshOutlivesACancelledRequest(t *testing.T) {
	k1, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	k2, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	r := newRotatingIssuer(t, k1, "k1")
	const aud = "https://mcp.example/mcp"
	now := time.Now()
	var clock atomic.Pointer[time.Time]
	clock.Store(&now)
	e, err := NewExternal(ExternalConfig{Issuer: r.hs.URL, Audience: aud, JWKSURL: r.hs.URL + "/jwks", Tools: func() []string { return []string{"read"} },
		Client: r.hs.Client(), Now: func() time.Time { return *clock.Load() }})
	if err != nil {
		t.Fatal(err)
	}
	claims := map[string]any{"iss": r.hs.URL, "aud": aud, "exp": now.Add(5 * time.Minute).Unix(), "scope": "tool:read"}
	r.add(k2, "k2") // the issuer rotates, past the least time between fetches
	later := now.Add(keysRefetch)
	clock.Store(&later)
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	e.Verify(cancelled, sign(t, jose.ES256, k2, "k2", claims), nil)
	if _, err := e.Verify(t.Context(), sign(t, jose.ES256, k2, "k2", claims), nil); err != nil {
		t.Fatalf("a good token with the rotated key after a cancelled request: %v", err)
	}
}

// A slow JWKS fetch holds no lock: tokens with known keys are checked
// meanwhile.
func TestExternalIssuerFetchHoldsNoLock(t *testing.T) {
	k1, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	r := newRotatingIssuer(t, k1, "k1")
	const aud = "https://mcp.example/mcp"
	now := time.Now()
	var armed, ended atomic.Bool
	client := r.hs.Client()
	client.Transport = endsTracked{base: client.Transport, armed: &armed, ended: &ended}
	var clock atomic.Pointer[time.Time]
	clock.Store(&now)
	e, err := NewExternal(ExternalConfig{Issuer: r.hs.URL, Audience: aud, JWKSURL: r.hs.URL + "/jwks", Tools: func() []string { return []string{"read"} },
		Client: client, Now: func() time.Time { return *clock.Load() }})
	if err != nil {
		t.Fatal(err)
	}
	claims := map[string]any{"iss": r.hs.URL, "aud": aud, "exp": now.Add(5 * time.Minute).Unix(), "scope": "tool:read"}
	later := now.Add(keysRefetch)
	clock.Store(&later)
	hold := make(chan struct{})
	r.hold.Store(&hold)
	armed.Store(true)
	defer close(hold)
	slow, stop := context.WithCancel(t.Context())
	defer stop()
	go e.Verify(slow, sign(t, jose.ES256, other, "bogus", claims), nil) // starts a fetch that waits
	select {
	case <-r.started:
	case <-time.After(20 * time.Second): // a hang bound
		t.Fatal("the unknown key started no fetch")
	}
	done := make(chan error, 1)
	go func() {
		_, err := e.Verify(t.Context(), sign(t, jose.ES256, k1, "k1", claims), nil)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("a good token during a slow fetch: %v", err)
		}
		if ended.Load() {
			t.Fatal("a good token waited for a slow JWKS fetch to end")
		}
	case <-time.After(60 * time.Second): // a hang bound
		t.Fatal("a good token waited for a slow JWKS fetch")
	}
}

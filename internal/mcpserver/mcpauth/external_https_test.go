package mcpauth

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// loopbackOnly sends requests to loopback hosts and counts, never dials,
// any other.
type loopbackOnly struct {
	base  http.RoundTripper
	other *atomic.Int32
}

func (l loopbackOnly) RoundTrip(r *http.Request) (*http.Response, error) {
	if h := r.URL.Hostname(); h != "127.0.0.1" && h != "::1" {
		l.other.Add(1)
		return nil, errors.New("the test dials no other host")
	}
	return l.base.RoundTrip(r)
}

// A discovered jwks_uri and every redirect must be https: plain http to
// another host is refused before it is fetched.
func TestExternalIssuerFetchesOnlyHTTPS(t *testing.T) {
	var jwksURI string
	mux := http.NewServeMux()
	hs := httptest.NewTLSServer(mux)
	defer hs.Close()
	mux.HandleFunc("/.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]string{"issuer": hs.URL, "jwks_uri": jwksURI})
	})
	mux.HandleFunc("/jwks", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://keys.example/jwks", http.StatusFound)
	})
	var other atomic.Int32
	client := hs.Client()
	client.Transport = loopbackOnly{base: client.Transport, other: &other}
	tools := func() []string { return []string{"read"} }
	for name, uri := range map[string]string{"discovered http": "http://keys.example/jwks", "redirect to http": hs.URL + "/jwks"} {
		jwksURI = uri
		_, err := NewExternal(ExternalConfig{Issuer: hs.URL, Audience: "aud", Tools: tools, Client: client})
		if err == nil || !strings.Contains(err.Error(), "use https") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if n := other.Load(); n != 0 {
		t.Fatalf("%d plain-http fetches were tried", n)
	}
}

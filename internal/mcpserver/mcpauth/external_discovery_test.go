package mcpauth

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	jose "github.com/go-jose/go-jose/v4"
)

// TestExternalIssuerDiscovery: the JWKS is found through RFC 8414 metadata
// (at the host, the issuer's path after it) when there is no OpenID
// discovery, and metadata naming another issuer is refused.
func TestExternalIssuerDiscovery(t *testing.T) {
	f := newFakeIssuer(t) // its keys and signer; its own discovery is not used
	var claimed string
	mux := http.NewServeMux()
	hs := httptest.NewTLSServer(mux)
	defer hs.Close()
	issuer := hs.URL + "/tenant"
	mux.HandleFunc("/.well-known/oauth-authorization-server/tenant", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]string{"issuer": claimed, "jwks_uri": f.hs.URL + "/jwks"})
	})
	client := hs.Client()
	client.Transport.(*http.Transport).TLSClientConfig.RootCAs.AddCert(f.hs.Certificate())
	tools := func() []string { return []string{"read"} }

	claimed = "https://evil.example"
	if _, err := NewExternal(ExternalConfig{Issuer: issuer, Audience: "aud", Tools: tools, Client: client}); err == nil || !strings.Contains(err.Error(), "names issuer") {
		t.Fatalf("metadata naming another issuer: %v", err)
	}
	claimed = issuer
	e, err := NewExternal(ExternalConfig{Issuer: issuer, Audience: "aud", Tools: tools, Client: client})
	if err != nil {
		t.Fatal(err)
	}
	c := f.claims("aud")
	c["iss"] = issuer
	if _, err := e.Verify(t.Context(), sign(t, jose.ES256, f.ec, "ec1", c), nil); err != nil {
		t.Fatalf("a token of the discovered issuer: %v", err)
	}
}

//go:build unix

package mcpserver

import (
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// [oauth] accept_any_typ = true takes an issuer's tokens that carry no
// typ; without it they are refused.
func TestOAuthAcceptAnyTypReachesTheVerifier(t *testing.T) {
	t.Parallel()
	p := newIDP(t)
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: p.key}, (&jose.SignerOptions{}).WithHeader("kid", "k1"))
	if err != nil {
		t.Fatal(err)
	}
	for _, anyTyp := range []bool{false, true} {
		f := newFixture(t) // its own audit journal
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		public := "http://" + ln.Addr().String()
		extra := ""
		if anyTyp {
			extra = "accept_any_typ = true\n"
		}
		cfg := mustConfig(t, f.config("")+"\n[oauth]\npublic_url = \""+public+"\"\nissuer = \""+p.hs.URL+"\"\n"+extra)
		srv, err := New(cfg, Options{Transport: "http", Warn: &syncBuffer{}, issuerClient: p.hs.Client()})
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
		now := time.Now()
		tok, err := jwt.Signed(s).Claims(map[string]any{"iss": p.hs.URL, "aud": public + MCPPath, "sub": "me", "scope": "tool:read",
			"exp": now.Add(5 * time.Minute).Unix(), "iat": now.Unix()}).Serialize()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := connectWith(t, public+MCPPath, tok); (err == nil) != anyTyp {
			t.Errorf("accept_any_typ %v, a token with no typ: %v", anyTyp, err)
		}
	}
}

package mcpauth

import (
	"strings"
	"testing"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// Only access tokens (typ at+jwt, RFC 9068) are taken, unless the config
// accepts any typ for an issuer that sets none.
func TestExternalIssuerWantsAccessTokenTyp(t *testing.T) {
	f := newFakeIssuer(t)
	const aud = "https://mcp.example/mcp"
	signTyp := func(typ string) string {
		opts := (&jose.SignerOptions{}).WithHeader("kid", "ec1")
		if typ != "" {
			opts = opts.WithType(jose.ContentType(typ))
		}
		s, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: f.ec}, opts)
		if err != nil {
			t.Fatal(err)
		}
		tok, err := jwt.Signed(s).Claims(f.claims(aud)).Serialize()
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	for _, anyTyp := range []bool{false, true} {
		e, err := NewExternal(ExternalConfig{Issuer: f.hs.URL, Audience: aud, Tools: func() []string { return []string{"read"} },
			Client: f.hs.Client(), AcceptAnyTyp: anyTyp})
		if err != nil {
			t.Fatal(err)
		}
		for typ, good := range map[string]bool{"at+jwt": true, "application/at+jwt": true, "AT+JWT": true, "JWT": anyTyp, "": anyTyp} {
			_, err := e.Verify(t.Context(), signTyp(typ), nil)
			if good != (err == nil) {
				t.Errorf("accept_any_typ %v, typ %q: %v", anyTyp, typ, err)
			}
			if err != nil && !strings.Contains(err.Error(), "at+jwt") {
				t.Errorf("typ %q: the refusal does not say what is wanted: %v", typ, err)
			}
		}
	}
}

//go:build unix

package mcpserver

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/poll"
)

// An issuer that is slow to answer does not leave the person looking at
// a silent server: the wait for its keys is named while it lasts.
func TestOAuthSlowIssuerIsNamedWhileWaited(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	p := newIDP(t)
	warn := &syncBuffer{}
	named := func() bool { return strings.Contains(warn.String(), "fetching the keys of issuer") }
	p.hs.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Hold the discovery until the wait has been named (bounded
		// well under the client's timeout, so the fetch still fails
		// visibly without the notice).
		poll.Until(10*time.Second, named)
		http.Error(w, "down", http.StatusBadGateway)
	})
	cfg := mustConfig(t, f.config("")+"\n[oauth]\npublic_url = \"http://127.0.0.1:1\"\nissuer = \""+p.hs.URL+"\"\n")
	srv, err := New(cfg, Options{Transport: "http", Warn: warn, issuerClient: p.hs.Client()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	if _, err := srv.HTTPHandler(""); err != nil {
		t.Fatal(err)
	}
	if !named() {
		t.Fatalf("the wait for the issuer's keys was silent; stderr:\n%s", warn.String())
	}
}

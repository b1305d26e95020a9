package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// version --check compares this binary's version with the proxy's newest
// release: older says how to update, the same says it is the newest.
func TestVersionCheckSaysWhenANewerOneExists(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/github.com/sentinelhq/sentinel/@latest" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(`{"Version":"v1.4.0"}`))
	}))
	defer srv.Close()
	old := version
	defer func() { version = old }()
	getenv := func(k string) string {
		if k == "GOPROXY" {
			return "direct," + srv.URL
		}
		return ""
	}
	for have, want := range map[string]string{
		"v1.2.0": "a newer version is available: v1.4.0 (this is v1.2.0); update with: go install github.com/sentinelhq/sentinel/cmd/sentinel@v1.4.0",
		"v1.4.0": "this is the newest version (v1.4.0)",
	} {
		version = have
		var b strings.Builder
		if err := checkNewer(context.Background(), &b, getenv); err != nil || !strings.Contains(b.String(), want) {
			t.Errorf("as %s: %q (%v), want %q", have, b.String(), err, want)
		}
	}
}

package web

import (
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
)

// Every way in without the right credential is refused and changes
// nothing: no token, a revoked token, another origin, a form without this
// device's page token, a replayed answer, a used or expired pairing code.
func TestRefusedRequestsChangeNothing(t *testing.T) {
	e := newEnv(t, Push{})
	r := e.ask("run-a", "/src/alpha", shell("make deploy"), askVerdict)
	id := e.waiting(1)[0].ID
	phone := e.pairDevice("phone")
	_, body := e.get("/", phone)
	tok := pageTokenOf(t, body)
	deny := url.Values{"token": {tok}, "id": {id}, "decision": {"deny"}, "message": {"no"}}

	if resp, _ := e.get("/", ""); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("the page without a token: %s", resp.Status)
	}
	if resp, _ := e.get("/events", ""); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("the live view without a token: %s", resp.Status)
	}
	cases := []struct {
		name          string
		token, origin string
		form          url.Values
		want          int
	}{
		{"no token", "", e.url, deny, http.StatusUnauthorized},
		{"a made-up token", "not-a-device", e.url, deny, http.StatusUnauthorized},
		{"another origin", phone, "http://evil.example", deny, http.StatusForbidden},
		{"no page token", phone, e.url, url.Values{"id": {id}, "decision": {"deny"}}, http.StatusForbidden},
		{"a forged page token", phone, e.url, url.Values{"token": {strings.Repeat("a", 24) + ".00"}, "id": {id}, "decision": {"deny"}}, http.StatusForbidden},
	}
	for _, c := range cases {
		resp := e.post("/answer", c.token, c.form, c.origin)
		if resp.StatusCode != c.want {
			t.Errorf("%s: %s, want %d", c.name, resp.Status, c.want)
		}
		if !r.pending() || len(e.q.List()) != 1 {
			t.Fatalf("%s changed something: the request no longer waits", c.name)
		}
	}

	// Another device's page token does not work for this one.
	laptop := e.pairDevice("laptop")
	_, lbody := e.get("/", laptop)
	if resp := e.post("/answer", phone, url.Values{"token": {pageTokenOf(t, lbody)}, "id": {id}, "decision": {"deny"}}, e.url); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("a page token of another device: %s", resp.Status)
	}

	// A revoked device is refused at once.
	if err := e.devs.Revoke("laptop"); err != nil {
		t.Fatal(err)
	}
	if resp := e.post("/answer", laptop, url.Values{"token": {pageTokenOf(t, lbody)}, "id": {id}, "decision": {"deny"}}, e.url); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("a revoked device: %s", resp.Status)
	}
	if resp, _ := e.get("/", laptop); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("a revoked device's page: %s", resp.Status)
	}
	if !r.pending() {
		t.Fatal("a refused answer reached the run")
	}

	// The real answer goes through once; its replay is refused.
	resp := e.post("/answer", phone, deny, e.url)
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != "/?r=denied" {
		t.Fatalf("the answer: %s → %q", resp.Status, loc)
	}
	if d := r.got(t); d.Outcome != approvals.OutcomeDeny || d.Message != "no" || !strings.Contains(d.Reason, "in the page") {
		t.Fatalf("the run got %+v", d)
	}
	resp = e.post("/answer", phone, url.Values{"token": {tok}, "id": {id}, "decision": {"approve"}}, e.url)
	if loc := resp.Header.Get("Location"); loc != "/?r=gone" {
		t.Fatalf("a replayed answer: %s → %q", resp.Status, loc)
	}
	j, _ := os.ReadFile(e.journal)
	if n := strings.Count(string(j), `"kind":"web-answer"`); n != 1 || !strings.Contains(string(j), `"device":"phone"`) {
		t.Fatalf("the journal has %d answers, want 1 from phone:\n%s", n, j)
	}
}

func TestPairingCodesAreOneTimeAndExpire(t *testing.T) {
	e := newEnv(t, Push{})
	code, err := e.devs.NewPairCode()
	if err != nil {
		t.Fatal(err)
	}
	if resp := e.post("/pair", "", url.Values{"code": {code}, "name": {"phone"}}, "http://evil.example"); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("pairing from another origin: %s", resp.Status)
	}
	if resp := e.post("/pair", "", url.Values{"code": {code}, "name": {"phone"}}, e.url); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("pairing: %s", resp.Status)
	}
	if resp := e.post("/pair", "", url.Values{"code": {code}, "name": {"tablet"}}, e.url); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("the same code again: %s", resp.Status)
	}
	code, _ = e.devs.NewPairCode()
	e.devs.now = func() time.Time { return time.Now().Add(PairTTL + time.Second) }
	if _, err := e.devs.Pair(code, "tablet"); err != ErrBadCode {
		t.Fatalf("an expired code: %v", err)
	}
	if l, _ := e.devs.List(); len(l) != 1 || l[0].Name != "phone" {
		t.Fatalf("devices: %+v", l)
	}
	b, _ := os.ReadFile(e.devs.path)
	if strings.Contains(string(b), code) {
		t.Fatal("the device file holds a code in clear")
	}
}

func TestRefusalsAreRateLimited(t *testing.T) {
	e := newEnv(t, Push{})
	last := 0
	for range failBurst + 2 {
		resp, _ := e.get("/", "made-up")
		last = resp.StatusCode
	}
	if last != http.StatusTooManyRequests {
		t.Fatalf("after %d refusals: %d, want 429", failBurst+2, last)
	}
}

func TestPageHeaders(t *testing.T) {
	e := newEnv(t, Push{})
	phone := e.pairDevice("phone")
	resp, body := e.get("/", phone)
	csp := resp.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'nonce-") || strings.Contains(csp, "unsafe-inline") || !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Fatalf("CSP: %q", csp)
	}
	nonce := strings.TrimSuffix(strings.SplitN(strings.SplitN(csp, "'nonce-", 2)[1], "'", 2)[0], "'")
	if !strings.Contains(body, `<script nonce="`+nonce+`" src="/static/app.js"`) || strings.Count(body, "<script") != 1 {
		t.Fatalf("the page's one script is not the nonced file:\n%s", body)
	}
}

// A device revoked while its live view is open loses it at once.
func TestRevokeEndsTheLiveView(t *testing.T) {
	e := newEnv(t, Push{})
	phone := e.pairDevice("phone")
	resp, err := func() (*http.Response, error) {
		req, _ := http.NewRequest(http.MethodGet, e.url+"/events", nil)
		req.AddCookie(&http.Cookie{Name: cookieName, Value: phone})
		return http.DefaultClient.Do(req)
	}()
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the live view: %v %v", err, resp)
	}
	defer resp.Body.Close()
	buf := make([]byte, 4096)
	if _, err := resp.Body.Read(buf); err != nil {
		t.Fatalf("the live view sent nothing: %v", err)
	}
	if err := e.devs.Revoke("phone"); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := io.Copy(io.Discard, resp.Body); done <- err }()
	select {
	case <-done:
	case <-time.After(20 * time.Second): // a hang bound
		t.Fatal("the revoked device's live view goes on")
	}
}

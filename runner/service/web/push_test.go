package web

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/policy"
)

// fakeNtfy is an ntfy-compatible server on loopback: it keeps what it is
// published.
func fakeNtfy(t *testing.T) (*httptest.Server, chan ntfyMessage) {
	got := make(chan ntfyMessage, 8)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m ntfyMessage
		b, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || json.Unmarshal(b, &m) != nil {
			http.Error(w, "bad publish", http.StatusBadRequest)
			return
		}
		got <- m
		_, _ = w.Write([]byte(`{"id":"x"}`))
	}))
	t.Cleanup(srv.Close)
	return srv, got
}

func published(t *testing.T, got chan ntfyMessage) ntfyMessage {
	t.Helper()
	select {
	case m := <-got:
		return m
	case <-time.After(20 * time.Second):
		t.Fatal("the push server heard nothing")
	}
	return ntfyMessage{}
}

func action(m ntfyMessage, label string) string {
	for _, a := range m.Actions {
		if a.Label == label {
			return a.URL
		}
	}
	return ""
}

func tap(t *testing.T, u string) int {
	t.Helper()
	resp, err := http.Post(u, "", nil) // as ntfy's http action: a POST, no Origin, no cookie
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// The push server hears of a card; its Approve decides exactly that
// request, once; a second tap, a token for another request, an expired or
// altered token are refused and change nothing.
func TestPushApproveDecidesThatRequestOnce(t *testing.T) {
	ntfy, got := fakeNtfy(t)
	e := newEnv(t, Push{URL: ntfy.URL, Topic: "sentinel-test"})
	r1 := e.ask("run-a", "/src/alpha", shell("npm test"), askVerdict)
	m1 := published(t, got)
	r2 := e.ask("run-b", "/src/beta", shell("cargo build"), askVerdict)
	m2 := published(t, got)
	ids := e.waiting(2)
	if m1.Topic != "sentinel-test" || !strings.Contains(m1.Message, "npm test") || action(m1, "Approve") == "" || action(m1, "Deny") == "" {
		t.Fatalf("the push: %+v", m1)
	}
	if !strings.HasSuffix(action(m1, "Open"), "/#c-"+ids[0].ID) {
		t.Fatalf("the push's Open: %q", action(m1, "Open"))
	}

	// An altered token: the other request's id under this one's signature.
	approve := action(m1, "Approve")
	if c := tap(t, strings.Replace(approve, "/push/", "/push/x", 1)); c != http.StatusForbidden {
		t.Fatalf("an altered token: %d", c)
	}
	// Expired: signed right, past its time.
	exp, _ := signPush(pushClaim{ID: ids[1].ID, Decision: "approve", Bind: bindOf(ids[1]), Exp: time.Now().Add(-time.Second).Unix(), Nonce: newNonce()})
	if c := tap(t, e.url+"/push/"+exp); c != http.StatusForbidden {
		t.Fatalf("an expired token: %d", c)
	}
	// Bound to another request: right id, different content.
	other := ids[1]
	other.Request.Command = "cargo publish"
	wrong, _ := signPush(pushClaim{ID: ids[1].ID, Decision: "approve", Bind: bindOf(other), Exp: time.Now().Add(time.Minute).Unix(), Nonce: newNonce()})
	if c := tap(t, e.url+"/push/"+wrong); c != http.StatusForbidden {
		t.Fatalf("a token bound to other content: %d", c)
	}
	if !r1.pending() || !r2.pending() {
		t.Fatal("a refused action decided something")
	}

	if c := tap(t, approve); c != http.StatusOK {
		t.Fatalf("Approve: %d", c)
	}
	if d := r1.got(t); d.Outcome != approvals.OutcomeAllow || !strings.Contains(d.Reason, "in the push") {
		t.Fatalf("run a got %+v", d)
	}
	if c := tap(t, approve); c != http.StatusForbidden {
		t.Fatalf("Approve again: %d", c)
	}
	if c := tap(t, action(m1, "Deny")); c != http.StatusForbidden {
		t.Fatalf("the same notification's Deny after its Approve: %d", c)
	}
	if !r2.pending() || len(e.q.List()) != 1 {
		t.Fatal("run b's request was decided by run a's push")
	}
	if c := tap(t, action(m2, "Deny")); c != http.StatusOK {
		t.Fatalf("run b's Deny: %d", c)
	}
	if d := r2.got(t); d.Outcome != approvals.OutcomeDeny {
		t.Fatalf("run b got %+v", d)
	}
}

// A person-only request (a secret read, a write that runs code later) is
// pushed without Approve, and a signed approve for it is refused anyway.
func TestPushNeverApprovesPersonOnly(t *testing.T) {
	ntfy, got := fakeNtfy(t)
	e := newEnv(t, Push{URL: ntfy.URL, Topic: "t"})
	r := e.ask("run-a", "/src/alpha", approvals.Request{Kind: policy.KindRead, Path: "/home/u/.ssh/id_ed25519", Cwd: "/work/ws"},
		policy.Verdict{Decision: policy.Ask, Rule: policy.RulePathReadSecret, Reason: "usually holds secrets"})
	m := published(t, got)
	if action(m, "Approve") != "" || action(m, "Deny") == "" || action(m, "Open") == "" {
		t.Fatalf("a person-only push offers: %+v", m.Actions)
	}
	en := e.waiting(1)[0]
	forged, _ := signPush(pushClaim{ID: en.ID, Decision: "approve", Bind: bindOf(en), Exp: time.Now().Add(time.Minute).Unix(), Nonce: newNonce()})
	if c := tap(t, e.url+"/push/"+forged); c != http.StatusForbidden {
		t.Fatalf("approve of a person-only request by a push: %d", c)
	}
	if !r.pending() {
		t.Fatal("the request was decided")
	}
}

// A push token is spent on its first use, whatever that use then finds.
func TestPushTokenIsSpentOnce(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	var u usedNonces
	tok, err := signPush(pushClaim{ID: "1", Decision: "approve", Bind: "b", Exp: time.Now().Add(time.Minute).Unix(), Nonce: newNonce()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := u.spend(tok, time.Now()); err != nil {
		t.Fatalf("first use: %v", err)
	}
	if _, err := u.spend(tok, time.Now()); err == nil {
		t.Fatal("a second use of the same token was accepted")
	}
}

// Without a topic the push is the person's webhook: the nudge and where to
// answer, as JSON; its approve_url decides the request.
func TestWebhookPush(t *testing.T) {
	got := make(chan Hook, 2)
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var h Hook
		if json.NewDecoder(r.Body).Decode(&h) != nil {
			http.Error(w, "bad", http.StatusBadRequest)
			return
		}
		got <- h
	}))
	t.Cleanup(hook.Close)
	e := newEnv(t, Push{URL: hook.URL})
	r := e.ask("run-a", "/src/alpha", shell("make"), askVerdict)
	var h Hook
	select {
	case h = <-got:
	case <-time.After(20 * time.Second):
		t.Fatal("the webhook heard nothing")
	}
	if h.Run != "run-a" || h.Summary != "make" || h.ApproveURL == "" || h.DenyURL == "" || !strings.Contains(h.PageURL, "/#c-"+h.ID) {
		t.Fatalf("the webhook got %+v", h)
	}
	if c := tap(t, h.ApproveURL); c != http.StatusOK {
		t.Fatalf("approve_url: %d", c)
	}
	if d := r.got(t); d.Outcome != approvals.OutcomeAllow {
		t.Fatalf("the run got %+v", d)
	}
}

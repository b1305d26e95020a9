package web

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/poll"
	"github.com/sentinelhq/sentinel/internal/servicewire"
	"github.com/sentinelhq/sentinel/policy"
)

// testEnv is a service in miniature: the real queue on a real socket (the
// fake runs post through it as runs do), the page on loopback, its device
// store and journal in a temp state dir.
type testEnv struct {
	t       *testing.T
	q       *queue.Queue
	s       *Server
	url     string
	devs    *Devices
	journal string
	ctx     context.Context
}

func newEnv(t *testing.T, push Push) *testEnv {
	t.Helper()
	rt, err := os.MkdirTemp("", "sw") // short: a unix socket's path is bounded
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(rt) })
	t.Setenv("XDG_RUNTIME_DIR", rt)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() { cancel(); wg.Wait() })
	e := &testEnv{t: t, ctx: ctx}
	var s *Server
	e.q = queue.New(func(en queue.Entry) { s.Notify(en) })
	mux := servicewire.NewMux()
	e.q.Mount(mux)
	path, err := servicewire.SocketPath()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := servicewire.Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	wg.Add(1)
	go func() { defer wg.Done(); _ = servicewire.Serve(ctx, ln, mux) }()
	if e.devs, err = OpenDevices(); err != nil {
		t.Fatal(err)
	}
	e.journal = filepath.Join(t.TempDir(), "web.jsonl")
	j, err := journal.Open(e.journal, "web")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	s, err = New(Options{Queue: e.q, Devices: e.devs, Journal: j, Push: push, Log: func(m string) { t.Log(m) }})
	if err != nil {
		t.Fatal(err)
	}
	e.s = s
	ready := make(chan string, 1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := s.Serve(ctx, "127.0.0.1:0", func(u string) { ready <- u }); err != nil {
			t.Error(err)
			ready <- ""
		}
	}()
	e.url = <-ready
	if e.url == "" {
		t.FailNow()
	}
	return e
}

// run is a fake run's request: it posts through the service's socket as a
// run's queue.Person does, and its decision arrives on the channel.
type fakeRun struct {
	decision chan approvals.Decision
	cancel   context.CancelFunc
}

func (e *testEnv) ask(runID, project string, req approvals.Request, v policy.Verdict) *fakeRun {
	ctx, cancel := context.WithCancel(e.ctx)
	e.t.Cleanup(cancel)
	r := &fakeRun{decision: make(chan approvals.Decision, 1), cancel: cancel}
	p := &queue.Person{Run: runID, Project: project, Coder: "command"}
	go func() {
		d, ok := p.Ask(ctx, &approvals.Prompt{Request: req, Verdict: v})
		if !ok {
			d = approvals.Decision{Outcome: "none"}
		}
		r.decision <- d
	}()
	return r
}

// waiting waits until n requests wait and returns them, oldest first.
func (e *testEnv) waiting(n int) []queue.Entry {
	e.t.Helper()
	var l []queue.Entry
	if !poll.Until(20*time.Second, func() bool { l = e.q.List(); return len(l) == n }) { // a hang bound, not a timing
		e.t.Fatalf("%d requests wait, want %d", len(l), n)
	}
	return l
}

func (r *fakeRun) got(t *testing.T) approvals.Decision {
	t.Helper()
	select {
	case d := <-r.decision:
		return d
	case <-time.After(20 * time.Second):
		t.Fatal("the run heard no answer")
	}
	return approvals.Decision{}
}

// pending says whether the run still waits.
func (r *fakeRun) pending() bool { return len(r.decision) == 0 }

// pairDevice pairs a device named name and returns its token.
func (e *testEnv) pairDevice(name string) string {
	e.t.Helper()
	code, err := e.devs.NewPairCode()
	if err != nil {
		e.t.Fatal(err)
	}
	resp := e.post("/pair", "", url.Values{"code": {code}, "name": {name}}, e.url)
	if resp.StatusCode != http.StatusSeeOther {
		e.t.Fatalf("pairing: %s", resp.Status)
	}
	for _, c := range resp.Cookies() {
		if c.Name == cookieName {
			return c.Value
		}
	}
	e.t.Fatal("pairing set no device cookie")
	return ""
}

// post sends a form as a browser would: with the device's cookie (if
// any) and an Origin (if any); redirects are not followed.
func (e *testEnv) post(path, token string, form url.Values, origin string) *http.Response {
	e.t.Helper()
	req, err := http.NewRequest(http.MethodPost, e.url+path, strings.NewReader(form.Encode()))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	if token != "" {
		req.AddCookie(&http.Cookie{Name: cookieName, Value: token})
	}
	return e.do(req)
}

func (e *testEnv) get(path, token string) (*http.Response, string) {
	e.t.Helper()
	req, err := http.NewRequest(http.MethodGet, e.url+path, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	if token != "" {
		req.AddCookie(&http.Cookie{Name: cookieName, Value: token})
	}
	resp := e.do(req)
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func (e *testEnv) do(req *http.Request) *http.Response {
	e.t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// pageTokenOf is the per-page token in a page's forms.
func pageTokenOf(t *testing.T, body string) string {
	t.Helper()
	_, rest, ok := strings.Cut(body, `name="token" value="`)
	if !ok {
		t.Fatalf("no page token in the page:\n%s", body)
	}
	tok, _, _ := strings.Cut(rest, `"`)
	return tok
}

func shell(cmd string) approvals.Request {
	return approvals.Request{Kind: policy.KindShell, Command: cmd, Cwd: "/work/ws"}
}

var askVerdict = policy.Verdict{Decision: policy.Ask, Rule: "shell.unknown", Reason: "not on the allowlist"}

func queueDeny(id string) queue.Answer {
	return queue.Answer{ID: id, Decision: queue.Deny, Via: "console"}
}

package approvals

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/poll"
	"github.com/sentinelhq/sentinel/policy"
)

type testRun struct {
	broker  *Broker
	socket  string
	journal *journal.Journal
	jpath   string
}

func startBroker(t *testing.T, cfg BrokerConfig) *testRun {
	t.Helper()
	dir, err := os.MkdirTemp("", "sb") // short: unix socket paths are limited
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	jp := filepath.Join(dir, "events.jsonl")
	j, err := journal.Open(jp, "r-test")
	if err != nil {
		t.Fatal(err)
	}
	cfg.SocketPath = filepath.Join(dir, "broker.sock")
	cfg.RunID = "r-test"
	cfg.Journal = j
	if cfg.Context.Workspace == "" {
		home, _ := os.UserHomeDir()
		cfg.Context = policy.Context{Workspace: dir, Cwd: dir, Home: home}
	}
	b, err := NewBroker(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b.Start()
	t.Cleanup(func() { b.Close(); j.Close() })
	return &testRun{broker: b, socket: cfg.SocketPath, journal: j, jpath: jp}
}

func (r *testRun) events(t *testing.T) []journal.Event {
	t.Helper()
	r.journal.Sync()
	evs, err := journal.ReadFile(r.jpath)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

func allowAll(by string) Decider {
	return DeciderFunc(func(ctx context.Context, p *Prompt) Decision {
		return Decision{Outcome: OutcomeAllow, By: by, Reason: "test"}
	})
}

func ask(t *testing.T, socket string, req Request) Decision {
	t.Helper()
	d, _ := AskOnce(context.Background(), socket, req)
	return d
}

// unknownShell is a command no policy allows or denies outright.
const unknownShell = "frobnicate --widgets 3"

func TestBrokerAsksTheDeciderAndJournals(t *testing.T) {
	r := startBroker(t, BrokerConfig{Decider: allowAll("person")})
	d := ask(t, r.socket, Request{Kind: policy.KindShell, Command: unknownShell, Adapter: "test", ToolCallID: "call-1"})
	if !d.Allowed() || d.By != "person" || d.RequestID == "" {
		t.Fatalf("decision = %+v, want allow by person with a request id", d)
	}
	evs := r.events(t)
	var req, dec *journal.Event
	for i := range evs {
		switch evs[i].Kind {
		case "request":
			req = &evs[i]
		case "decision":
			dec = &evs[i]
		}
	}
	if req == nil || dec == nil || req.Lane != journal.Approval || dec.Lane != journal.Approval {
		t.Fatalf("journal lacks approval request/decision: %+v", evs)
	}
	var got struct {
		ID         string `json:"id"`
		Command    string `json:"command"`
		ToolCallID string `json:"tool_call_id"`
		Verdict    struct {
			Decision string `json:"decision"`
		} `json:"verdict"`
	}
	req.Decode(&got)
	if got.Command != unknownShell || got.ToolCallID != "call-1" || got.ID != d.RequestID || got.Verdict.Decision == "" {
		t.Fatalf("request event data = %s", req.Data)
	}
	var gd map[string]any
	json.Unmarshal(dec.Data, &gd)
	if _, ok := gd["latency_ms"]; !ok || gd["by"] != "person" || gd["request_id"] != d.RequestID {
		t.Fatalf("decision event data = %s", dec.Data)
	}
	if !strings.HasPrefix(dec.Text, "allowed: ") {
		t.Fatalf("decision text = %q", dec.Text)
	}
}

func TestBrokerFailsClosed(t *testing.T) {
	tests := []struct {
		name    string
		decider Decider
		timeout time.Duration
		req     Request
		by      string
	}{
		{"no decider", nil, 0, Request{Kind: policy.KindShell, Command: unknownShell}, "nobody"},
		{"nobody answers in time", DeciderFunc(func(ctx context.Context, p *Prompt) Decision {
			<-ctx.Done()
			return Decision{}
		}), 50 * time.Millisecond, Request{Kind: policy.KindShell, Command: unknownShell}, "timeout"},
		{"decider ignores the deadline", DeciderFunc(func(ctx context.Context, p *Prompt) Decision {
			select {}
		}), 50 * time.Millisecond, Request{Kind: policy.KindShell, Command: unknownShell}, "timeout"},
		{"decider panics", DeciderFunc(func(ctx context.Context, p *Prompt) Decision { panic("boom") }), 0,
			Request{Kind: policy.KindShell, Command: unknownShell}, "error"},
		{"decider answers garbage", DeciderFunc(func(ctx context.Context, p *Prompt) Decision { return Decision{Outcome: "maybe"} }), 0,
			Request{Kind: policy.KindShell, Command: unknownShell}, "error"},
		{"malformed: no kind", allowAll("person"), 0, Request{Command: "ls"}, "error"},
		{"malformed: unknown kind", allowAll("person"), 0, Request{Kind: "teleport", Command: "ls"}, "error"},
		{"malformed: shell without command", allowAll("person"), 0, Request{Kind: policy.KindShell}, "error"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := startBroker(t, BrokerConfig{Decider: tc.decider, Timeout: tc.timeout})
			d := ask(t, r.socket, tc.req)
			if d.Allowed() || d.By != tc.by || d.Reason == "" || d.Message == "" {
				t.Fatalf("decision = %+v, want deny by %s with a reason and a message", d, tc.by)
			}
			var last journal.Event
			for _, ev := range r.events(t) {
				if ev.Kind == "decision" {
					last = ev
				}
			}
			if !strings.HasPrefix(last.Text, "denied: ") {
				t.Fatalf("journaled decision text %q does not start with denied:", last.Text)
			}
		})
	}
}

func TestMalformedWireMessagesAreDenied(t *testing.T) {
	r := startBroker(t, BrokerConfig{Decider: allowAll("person")})
	for _, line := range []string{
		"this is not json",
		`{"v":99,"type":"request","id":"x","request":{"kind":"shell","command":"ls"}}`,
		`{"v":1,"type":"add_template","id":"y","template":{"prefix":["rm"]}}`,
	} {
		c, err := net.Dial("unix", r.socket)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintln(c, line)
		var m message
		if err := json.NewDecoder(c).Decode(&m); err != nil {
			t.Fatal(err)
		}
		c.Close()
		if m.Type != msgDecision || m.Decision == nil || m.Decision.Allowed() || m.Decision.By != "error" {
			t.Fatalf("%s → %+v, want a deny by error", line, m)
		}
	}
	if n := len(r.broker.Templates().All()); n != 0 {
		t.Fatalf("a template arrived over the socket: %d", n)
	}
}

func TestManyRequestsInFlight(t *testing.T) {
	const n = 16
	arrived := make(chan *Prompt, n)
	release := make(chan struct{})
	dec := DeciderFunc(func(ctx context.Context, p *Prompt) Decision {
		arrived <- p
		<-release
		return Decision{Outcome: OutcomeAllow, By: "person", Reason: p.Request.Command}
	})
	r := startBroker(t, BrokerConfig{Decider: dec})
	c, err := Dial(r.socket)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var wg sync.WaitGroup
	got := make([]Decision, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], _ = c.Ask(context.Background(), Request{Kind: policy.KindShell, Command: fmt.Sprintf("frob %d", i)})
		}()
	}
	for range n { // all n are waiting at once before any is answered
		<-arrived
	}
	close(release)
	wg.Wait()
	for i, d := range got {
		if !d.Allowed() || d.Reason != fmt.Sprintf("frob %d", i) {
			t.Fatalf("request %d got %+v (answers crossed?)", i, d)
		}
	}
}

// A skip answers at once: the coder is told the person skipped it and goes
// on (it does not wait for the timeout), and the journal says skipped.
func TestPersonQueueSkipAnswersAtOnce(t *testing.T) {
	q := NewPersonQueue()
	r := startBroker(t, BrokerConfig{Decider: q})
	done := make(chan Decision, 1)
	go func() { done <- ask(t, r.socket, Request{Kind: policy.KindShell, Command: unknownShell}) }()
	p := <-q.Prompts()
	p.Answer(Answer{Kind: Skip})
	d := <-done
	if d.Allowed() || d.By != "person" || d.Message != "skipped by the person: go on without it, or ask again later" {
		t.Fatalf("decision = %+v", d)
	}
	select {
	case <-p.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("prompt not marked done after its decision")
	}
	var got string
	for _, ev := range r.events(t) {
		if ev.Kind == KindDecision {
			got = ev.Text
		}
	}
	if want := "skipped: " + unknownShell + " (person)"; got != want {
		t.Fatalf("journaled %q, want %q", got, want)
	}
}

func TestTimeoutClosesThePrompt(t *testing.T) {
	q := NewPersonQueue()
	r := startBroker(t, BrokerConfig{Decider: q, Timeout: 30 * time.Millisecond})
	go ask(t, r.socket, Request{Kind: policy.KindShell, Command: unknownShell})
	p := <-q.Prompts()
	select { // a view drops the card once it times out
	case <-p.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("prompt still open after the request timed out")
	}
	p.Answer(Answer{Kind: ApproveOnce}) // too late: ignored, must not block
}

func TestRememberStoresTemplate(t *testing.T) {
	q := NewPersonQueue()
	r := startBroker(t, BrokerConfig{Decider: q})
	go func() {
		p := <-q.Prompts()
		ms := SuggestGrants(p.Request, p.Verdict)
		p.Answer(Answer{Kind: ApproveRemember, Grant: &GrantSpec{Scope: ScopeRun, Match: ms[len(ms)-1]}})
	}()
	d := ask(t, r.socket, Request{Kind: policy.KindShell, Command: "frobnicate --widgets 3"})
	if !d.Allowed() || !d.Remember {
		t.Fatalf("decision = %+v", d)
	}
	all := r.broker.Templates().All()
	if len(all) != 1 || all[0].Scope != ScopeRun || strings.Join(all[0].Match.Prefix, " ") != "frobnicate --widgets" || all[0].CreatedRun != "r-test" {
		t.Fatalf("templates = %+v", all)
	}
	found := false
	for _, ev := range r.events(t) {
		found = found || ev.Kind == "template-added"
	}
	if !found {
		t.Fatal("no template-added event")
	}
	if d := ask(t, r.socket, Request{Kind: policy.KindShell, Command: "frobnicate --widgets 7"}); !d.Allowed() || !strings.HasPrefix(d.By, "template:") {
		t.Fatalf("second request = %+v, want allow by template", d)
	}
}

func TestUnreachableBrokerIsDeny(t *testing.T) {
	r := startBroker(t, BrokerConfig{Decider: allowAll("person")})
	r.broker.Close()
	d, err := AskOnce(context.Background(), r.socket, Request{Kind: policy.KindShell, Command: "ls"})
	if err == nil || d.Allowed() || d.By != "error" {
		t.Fatalf("closed broker: %+v %v", d, err)
	}
	if _, err := os.Stat(r.socket); !os.IsNotExist(err) {
		t.Fatalf("socket left behind after Close: %v", err)
	}
	d, err = AskOnce(context.Background(), "", Request{Kind: policy.KindShell, Command: "ls"})
	if err == nil || d.Allowed() || !strings.Contains(d.Reason, EnvSocket) {
		t.Fatalf("no socket: %+v %v", d, err)
	}
}

func TestSocketIsPrivate(t *testing.T) {
	r := startBroker(t, BrokerConfig{})
	fi, err := os.Stat(r.socket)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket mode %v, want 0600", fi.Mode().Perm())
	}
}

func TestReportsAreJournaled(t *testing.T) {
	r := startBroker(t, BrokerConfig{})
	c, err := Dial(r.socket)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	code := 3
	if err := c.Report(context.Background(), Report{Lane: "tool", Kind: "tool-result", Text: "Bash: make → exit 3", ExitCode: &code}); err != nil {
		t.Fatal(err)
	}
	if err := c.Report(context.Background(), Report{Lane: "approval", Kind: "decision", Text: "allowed: rm -rf /"}); err == nil {
		t.Fatal("a report forged a decision on the approval lane")
	}
	var saw bool
	for _, ev := range r.events(t) {
		if ev.Lane == journal.Approval {
			t.Fatalf("report reached the approval lane: %+v", ev)
		}
		saw = saw || (ev.Lane == journal.Tool && ev.Kind == "tool-result" && ev.Text == "Bash: make → exit 3")
	}
	if !saw {
		t.Fatal("tool report not journaled")
	}
}

func TestInProcessDecide(t *testing.T) {
	r := startBroker(t, BrokerConfig{})
	d := r.broker.Decide(context.Background(), Request{Kind: policy.KindNet, Host: "example.org", Port: 443, Adapter: "proxy"})
	if d.Allowed() {
		t.Fatalf("net request with no decider = %+v", d)
	}
}

func TestPolicyWinsOverTemplatesAndPeople(t *testing.T) {
	eng, err := policy.Load()
	if err != nil {
		t.Fatal(err)
	}
	set := NewTemplateSet()
	set.Add(GrantSpec{Scope: ScopeRun, Match: Match{Prefix: []string{"rm"}}}, Origin{})
	asked := false
	r := startBroker(t, BrokerConfig{Policy: eng, Templates: set, Decider: DeciderFunc(func(ctx context.Context, p *Prompt) Decision {
		asked = true
		return Decision{Outcome: OutcomeAllow, By: "person"}
	})})
	d := ask(t, r.socket, Request{Kind: policy.KindShell, Command: "rm -rf ~"})
	if d.Allowed() || !strings.HasPrefix(d.By, "policy:") || asked {
		t.Fatalf("rm -rf ~ = %+v (asked=%v), want a policy deny without asking", d, asked)
	}
}

func TestBrokerReloadsEditedTemplateFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "templates.toml")
	set, err := LoadTemplates(f, "")
	if err != nil {
		t.Fatal(err)
	}
	r := startBroker(t, BrokerConfig{Templates: set})
	os.WriteFile(f, []byte("[[template]]\nid = \"t-edit\"\nhost = \"widgets.example.net\"\n"), 0o600)
	var d Decision
	if !poll.Until(time.Minute, func() bool { // a hang bound
		d = r.broker.Decide(context.Background(), Request{Kind: policy.KindNet, Host: "widgets.example.net", Port: 443})
		return d.Allowed() && d.By == "template:t-edit"
	}) {
		t.Fatalf("edited template file never took effect: last decision %+v", d)
	}
	os.WriteFile(f, []byte("[[template]]\nid = \"t-edit\"\nhost = \"widgets.example.net\"\nbogus = 1\n"), 0o600)
	if poll.Until(time.Minute, func() bool {
		for _, ev := range r.events(t) {
			if ev.Kind == "template-error" && strings.Contains(ev.Text, f+":4:") {
				return true
			}
		}
		return false
	}) {
		return
	}
	for _, ev := range r.events(t) {
		t.Log(ev.Kind, ev.Text)
	}
	t.Fatal("a broken edit was not reported on the system lane")
}

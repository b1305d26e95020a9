package codex

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/fakeresponses"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/policy"
)

// pinned is the Codex version CI installs and these tests were written against.
const pinned = "0.171.0"

// requireCodex returns the codex binary, skipping the test when it is not
// installed — except under CI=true, where a missing one is a failure.
func requireCodex(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("codex")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("codex is not on PATH; CI must install it: npm install -g @openai/codex@" + pinned)
		}
		t.Skip("codex is not installed (npm install -g @openai/codex@" + pinned + "); skipping the end-to-end test")
	}
	return p
}

// world is one end-to-end setup: a workspace, a CODEX_HOME, a broker with
// the real built-in policy and person (nil: every "ask" is denied), the fake
// Responses server, and the journal.
type world struct {
	ws, home, codexHome string
	journalPath         string
	model               *fakeresponses.Server
	broker              *approvals.Broker
	client              *approvals.Client
	inProcess           bool     // ask the broker in process (AskerFunc), not over its socket
	env                 []string // more of codex's environment

	mu    sync.Mutex
	lines []Line
	wire  []string // every JSON-RPC line, prefixed "> " (to codex) or "< " (from codex)

	smu    sync.Mutex
	stderr strings.Builder // codex's log
	// session is set once Start returns; a decider may wait for it.
	session chan *Session
}

func newWorld(t *testing.T, script fakeresponses.Script, person approvals.Decider) *world {
	t.Helper()
	w := &world{ws: t.TempDir(), home: t.TempDir(), codexHome: t.TempDir(), session: make(chan *Session, 1)}
	sockDir, err := os.MkdirTemp("", "sx")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(sockDir) })
	w.journalPath = filepath.Join(t.TempDir(), "events.jsonl")
	j, err := journal.Open(w.journalPath, "e2e")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	eng, err := policy.Load(askScriptsRules(t))
	if err != nil {
		t.Fatal(err)
	}
	w.broker, err = approvals.NewBroker(approvals.BrokerConfig{SocketPath: filepath.Join(sockDir, "b.sock"), RunID: "e2e",
		Policy: eng, Context: policy.Context{Workspace: w.ws, Cwd: w.ws, Home: w.home}, Timeout: time.Minute,
		Journal: j, Decider: person})
	if err != nil {
		t.Fatal(err)
	}
	w.broker.Start()
	t.Cleanup(func() { w.broker.Close() })
	if w.client, err = approvals.Dial(w.broker.SocketPath()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.client.Close() })
	w.model, err = fakeresponses.Start(script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.model.Close() })
	if err := WriteConfig(w.codexHome, PlanFor(Provider{BaseURL: w.model.BaseURL(), EnvKey: "SENTINEL_TEST_KEY", Model: "gpt-5.5"}), nil); err != nil {
		t.Fatal(err)
	}
	return w
}

// run starts codex app-server through a Session (without Sentinel's
// sandbox: these tests pin the protocol, not the sandbox) and waits for the
// turn to end and the process to exit.
func (w *world) run(t *testing.T, task string) *Session {
	t.Helper()
	bin := requireCodex(t)
	a := New(Options{Binary: bin})
	argv, err := a.Argv(task)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = w.ws
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + w.home, "LANG=C.UTF-8",
		"CODEX_HOME=" + w.codexHome, "SENTINEL_TEST_KEY=sk-test-fake"}, a.Env()...)
	cmd.Env = append(cmd.Env, w.env...)
	stderr, smu := &w.stderr, &w.smu
	var asker Asker = w.client
	if w.inProcess {
		asker = AskerFunc(w.broker.Decide)
	}
	cfg := Config{Task: task, Workspace: w.ws, Asker: asker,
		OnLine: func(l Line) {
			w.mu.Lock()
			w.lines = append(w.lines, l)
			w.mu.Unlock()
		},
		Stderr: writerFunc(func(b []byte) { smu.Lock(); stderr.Write(b); smu.Unlock() }),
	}
	cfg.Trace = func(dir string, b []byte) {
		w.mu.Lock()
		w.wire = append(w.wire, dir+" "+string(b))
		w.mu.Unlock()
		if os.Getenv("SENTINEL_CODEX_TRACE") != "" {
			t.Logf("%s %s", dir, b)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	s, err := Start(ctx, cmd, cfg)
	if err != nil {
		t.Fatal(err)
	}
	w.session <- s
	select {
	case <-s.Exited():
	case <-ctx.Done():
		s.Stop(2 * time.Second)
		smu.Lock()
		t.Fatalf("codex did not finish in time; stderr:\n%s", stderr.String())
	}
	t.Cleanup(func() {
		if t.Failed() {
			smu.Lock()
			t.Logf("codex stderr:\n%s", stderr.String())
			smu.Unlock()
			for _, l := range w.got() {
				t.Logf("line %s/%s: %s", l.Lane, l.Kind, l.Text)
			}
		}
	})
	return s
}

type writerFunc func([]byte)

func (f writerFunc) Write(b []byte) (int, error) { f(b); return len(b), nil }

// sent are the JSON-RPC lines Sentinel sent to codex.
func (w *world) sent() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	for _, l := range w.wire {
		if strings.HasPrefix(l, "> ") {
			out = append(out, strings.TrimPrefix(l, "> "))
		}
	}
	return out
}

func (w *world) got() []Line {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]Line(nil), w.lines...)
}

// events are the run journal's events, in order.
func (w *world) events(t *testing.T) []journal.Event {
	t.Helper()
	evs, err := journal.ReadFile(w.journalPath)
	if err != nil {
		t.Fatalf("journal: %v", err)
	}
	return evs
}

// requests are the broker's journaled requests, in order.
func (w *world) requests(t *testing.T) []approvals.Request {
	t.Helper()
	var out []approvals.Request
	for _, ev := range w.events(t) {
		var r approvals.Request
		if ev.Lane == journal.Approval && ev.Kind == "request" && ev.Decode(&r) == nil {
			out = append(out, r)
		}
	}
	return out
}

// decisions are the broker's journaled decisions, in order.
func (w *world) decisions(t *testing.T) []approvals.Decision {
	t.Helper()
	var out []approvals.Decision
	for _, ev := range w.events(t) {
		var d approvals.Decision
		if ev.Lane == journal.Approval && ev.Kind == "decision" && ev.Decode(&d) == nil {
			out = append(out, d)
		}
	}
	return out
}

// approveAll is a person who approves every prompt once.
func approveAll() approvals.Decider {
	return approvals.DeciderFunc(func(ctx context.Context, p *approvals.Prompt) approvals.Decision {
		return approvals.Decision{Outcome: approvals.OutcomeAllow, By: "person", Reason: "approved once"}
	})
}

// askScriptsRules is a rule file asking about every `sh ./script` (what
// script writes): the built-in policy allows a workspace script with the
// sandbox off, as `make test` runs it (issue 32), and these tests are about
// how an ask travels between Codex and the broker, not about that judgment.
func askScriptsRules(t *testing.T) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "policy.toml")
	rules := "[[rule]]\nid = \"test.ask-scripts\"\ndecision = \"ask\"\nreason = \"the test asks about its scripts\"\nargv = [\"sh\", \"*\"]\n"
	if err := os.WriteFile(f, []byte(rules), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

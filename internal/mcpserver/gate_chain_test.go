//go:build unix

package mcpserver

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/internal/servicewire"
	"github.com/sentinelhq/sentinel/policy"
)

// serveQueue runs the user service's approval queue on a private socket;
// each request posted to it arrives on the returned channel.
func serveQueue(t *testing.T) (*queue.Queue, chan queue.Entry) {
	t.Helper()
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	path, err := servicewire.SocketPath()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := servicewire.Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	posted := make(chan queue.Entry, 4)
	q := queue.New(func(e queue.Entry) { posted <- e })
	mux := servicewire.NewMux()
	q.Mount(mux)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { servicewire.Serve(ctx, ln, mux); close(done) }()
	t.Cleanup(func() { cancel(); ln.Close(); <-done })
	return q, posted
}

// In policy mode a line is judged by the same chain as a run's: the
// built-in rules and the person's policy.toml, the person's templates, and
// what the policy asks about goes to the person through the console queue,
// who answers it as they would a run's card.
func TestPolicyModeDecidesThroughThePersonsChain(t *testing.T) {
	f := newFixture(t)
	cfgHome := t.TempDir() // the person's config: this test's own
	t.Setenv("XDG_CONFIG_HOME", cfgHome)
	write(t, filepath.Join(cfgHome, "sentinel", "policy.toml"), `[[rule]]
id = "no-figlet"
decision = "deny"
reason = "the person said no figlet"
argv = ["figlet"]
`)
	q, posted := serveQueue(t)
	srv, err := New(mustConfig(t, strings.Replace(f.config(""), "allowed_commands", "exec_mode = \"policy\"\nallowed_commands", 1)), Options{Transport: "memory"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	pctx := srv.policyContext(f.rw)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang bound only
	defer cancel()
	if v := srv.gate.engine.Check(policy.Query{Kind: policy.KindShell, Command: "figlet hi", Context: pctx}); v.Decision != policy.Deny || v.Rule != "no-figlet" {
		t.Fatalf("the person's policy.toml was not loaded: %+v", v)
	}
	for _, c := range []struct {
		decision string
		want     string
	}{{queue.Approve, ""}, {queue.Deny, "[policy-deny]"}} {
		answered := make(chan error, 1)
		decided := make(chan struct{})
		go func() {
			var e queue.Entry
			select {
			case e = <-posted:
			case <-decided:
				answered <- errors.New("nothing reached the approval queue")
				return
			}
			if e.Coder != "mcp" || e.Project != f.rw || !strings.Contains(e.Request.Command, "left-pad") {
				t.Errorf("the queued request: %+v", e)
			}
			answered <- q.Answer(queue.Answer{ID: e.ID, Decision: c.decision, Message: "not today", Via: "console"})
		}()
		rule, err := srv.gate.decide(ctx, "npm install left-pad", pctx, srv.gate.verdict("npm install left-pad", pctx))
		close(decided)
		if aerr := <-answered; aerr != nil {
			t.Fatal(aerr)
		}
		if c.want == "" && (err != nil || rule != "person") {
			t.Errorf("approved in the queue: %q %v", rule, err)
		}
		if c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "not today")) {
			t.Errorf("denied in the queue: %v", err)
		}
	}
}

// With no service running, an ask is refused at once as no one to ask.
func TestPolicyModeWithoutTheServiceHasNoOneToAsk(t *testing.T) {
	f := newFixture(t)
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	srv, err := New(mustConfig(t, strings.Replace(f.config(""), "allowed_commands", "exec_mode = \"policy\"\nallowed_commands", 1)), Options{Transport: "memory"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	_, err = srv.gate.decide(context.Background(), "npm install left-pad", srv.policyContext(f.rw), srv.gate.verdict("npm install left-pad", srv.policyContext(f.rw)))
	if err == nil || !strings.Contains(err.Error(), "[no-one-to-ask]") || !strings.Contains(err.Error(), "sentinel service") {
		t.Fatalf("no service: %v", err)
	}
}

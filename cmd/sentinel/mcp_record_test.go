package main

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/internal/mcpserver"
	"github.com/sentinelhq/sentinel/internal/poll"
	"github.com/sentinelhq/sentinel/internal/servicewire"
	"github.com/sentinelhq/sentinel/policy"
	"github.com/sentinelhq/sentinel/runner"
)

// fakeRegistrar records what a run told the service's registry.
type fakeRegistrar struct {
	mu    sync.Mutex
	regs  []runner.RunRegistration
	ended []runner.Status
}

func (f *fakeRegistrar) Register(r runner.RunRegistration) runner.Registered {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.regs = append(f.regs, r)
	return fakeRegistered{f}
}

type fakeRegistered struct{ f *fakeRegistrar }

func (fakeRegistered) State(string) {}
func (r fakeRegistered) End(s runner.Status) {
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	r.f.ended = append(r.f.ended, s)
}

// A `sentinel mcp` server is a run the user service knows (h/ipfix12):
// registered as mode mcp, reported running with each DANGEROUS line it
// tells the person, then done with them when it ends; `sentinel status`
// lists it and its flagged lines, and an ask of the session in the
// approval queue counts as that run's (same run id and project), not as
// another run's.
func TestAnMCPSessionIsARunTheServiceShows(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	path, err := servicewire.SocketPath()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := servicewire.Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	posted := make(chan queue.Entry, 1)
	q := queue.New(func(e queue.Entry) { posted <- e })
	mux := servicewire.NewMux()
	q.Mount(mux)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { servicewire.Serve(ctx, ln, mux); close(done) }()
	t.Cleanup(func() { cancel(); ln.Close(); <-done })

	const id, project = "mcp-20261207-020000-4242", "/src/app"
	reg := &fakeRegistrar{}
	rec := newMCPRecord()
	rec.start(id, project, reg)
	line := "DANGEROUS: app/.husky/pre-commit: a git hook the command made (exec bash s.sh)"
	rec.danger(line)
	waitFor := func(what string, ok func(queue.RunStatus) bool) queue.RunStatus {
		t.Helper()
		var got queue.RunStatus
		found := poll.Until(20*time.Second, func() bool {
			for _, st := range q.Statuses() {
				if st.Run == id && ok(st) {
					got = st
					return true
				}
			}
			return false
		})
		if !found {
			t.Fatalf("the service never showed the session %s: %+v", what, q.Statuses())
		}
		return got
	}
	has := func(st queue.RunStatus) bool { return len(st.Flagged) == 1 && st.Flagged[0] == line }
	waitFor("running with its flagged line", func(st queue.RunStatus) bool {
		return st.State == queue.StateRunning && st.Coder == "mcp" && st.Project == project && has(st)
	})

	// An ask of the session: the same run, waiting for the person.
	asked := make(chan struct{})
	go func() {
		defer close(asked)
		askCtx, stop := context.WithTimeout(context.Background(), 20*time.Second)
		defer stop()
		_, _, _ = mcpserver.QueuePerson{Run: id, Project: project}.Ask(askCtx,
			approvals.Request{Kind: policy.KindShell, Command: "rm -rf build", Cwd: project, Adapter: "mcp"}, policy.Verdict{Decision: policy.Ask, Rule: "r", Reason: "why"})
	}()
	e := <-posted
	if e.Run != id || e.Project != project {
		t.Errorf("the session's ask carries run %q in %q, not the session's %q in %q", e.Run, e.Project, id, project)
	}
	st := waitFor("waiting for the person", func(st queue.RunStatus) bool { return st.Pending == 1 })
	if n := len(q.Statuses()); n != 1 {
		t.Errorf("the ask made another run: %+v", q.Statuses())
	}
	var b bytes.Buffer
	writeStatusTable(&b, []queue.RunStatus{st}, time.Now())
	if !strings.Contains(b.String(), id) || !strings.Contains(b.String(), line) {
		t.Errorf("sentinel status does not list the session and its flagged line:\n%s", b.String())
	}
	if err := q.Answer(queue.Answer{ID: e.ID, Decision: queue.Deny, Via: "console"}); err != nil {
		t.Fatal(err)
	}
	<-asked

	rec.end()
	waitFor("done, its flagged line kept", func(st queue.RunStatus) bool { return st.State == queue.StateDone && has(st) })
	reg.mu.Lock()
	defer reg.mu.Unlock()
	if len(reg.regs) != 1 || reg.regs[0].ID != id || reg.regs[0].Mode != "mcp" || reg.regs[0].Project != project {
		t.Errorf("the registry was told %+v, want the session as mode mcp", reg.regs)
	}
	if len(reg.ended) != 1 || reg.ended[0] != runner.StatusDone {
		t.Errorf("the registration ended with %v, want done once", reg.ended)
	}
}

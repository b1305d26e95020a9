package claude

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/fakemodel"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/testbin"
	"github.com/sentinelhq/sentinel/policy"
)

// fakeKey is the API key the tests give Claude Code; the fake server takes any.
const fakeKey = "sk-ant-sentinel-test-0123456789abcdefghij"

// requireClaude returns the claude binary, skipping the test when it is not
// installed — except under CI=true, where CI installs it and a missing one
// is a failure.
func requireClaude(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("claude")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("claude is not on PATH; CI must install it: npm install -g @anthropic-ai/claude-code@2.1.332")
		}
		t.Skip("claude is not installed (npm install -g @anthropic-ai/claude-code@2.1.332); skipping the end-to-end test")
	}
	return p
}

// world is one end-to-end setup: a throwaway HOME, a workspace, a broker
// with the real built-in policy and no person (every "ask" is denied), the
// fake model, and the built sentinel binary for the hooks.
type world struct {
	home, ws, outside string
	sentinel          string
	socket            string
	journalPath       string
	model             *fakemodel.Server
	broker            *approvals.Broker
}

func newWorld(t *testing.T, script fakemodel.Script) *world {
	t.Helper()
	return newWorldWith(t, script, nil)
}

// newWorldWith is newWorld with a decider standing in for the person.
func newWorldWith(t *testing.T, script fakemodel.Script, person approvals.Decider) *world {
	t.Helper()
	bin, err := testbin.Sentinel()
	if err != nil {
		t.Fatal(err)
	}
	w := &world{home: t.TempDir(), ws: t.TempDir(), outside: t.TempDir(), sentinel: bin}
	// A unix socket path must be short: keep it directly under /tmp.
	sockDir, err := os.MkdirTemp("", "sc")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(sockDir) })
	w.socket = filepath.Join(sockDir, "b.sock")
	w.journalPath = filepath.Join(t.TempDir(), "events.jsonl")
	j, err := journal.Open(w.journalPath, "e2e")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	eng, err := policy.Load()
	if err != nil {
		t.Fatal(err)
	}
	w.broker, err = approvals.NewBroker(approvals.BrokerConfig{SocketPath: w.socket, RunID: "e2e", Policy: eng,
		Context: policy.Context{Workspace: w.ws, Cwd: w.ws, Home: w.home}, Timeout: time.Minute, Journal: j,
		Decider: person})
	if err != nil {
		t.Fatal(err)
	}
	w.broker.Start()
	t.Cleanup(func() { w.broker.Close() })
	w.model, err = fakemodel.Start(script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.model.Close() })
	return w
}

// env is Claude Code's whole environment: nothing from the test's own.
func (w *world) env(a *Adapter) []string {
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + w.home, "TERM=xterm-256color", "LANG=C.UTF-8",
		"ANTHROPIC_BASE_URL=" + w.model.URL, "ANTHROPIC_API_KEY=" + fakeKey,
		approvals.EnvSocket + "=" + w.socket, approvals.EnvRun + "=e2e"}
	return append(env, a.Env()...)
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

// runHeadless runs claude -p through the adapter with plain pipes: the task
// goes in as a stream-json message, stdin is closed once a result line
// comes out, and every decoded line is returned.
func (w *world) runHeadless(t *testing.T, a *Adapter, task string) []Line {
	t.Helper()
	return w.runHeadlessUntil(t, a, task, nil)
}

// runHeadlessUntil is runHeadless closing stdin only at a result line after
// which done (when not nil) holds: a background subagent may still be
// working when the main loop reports a result.
func (w *world) runHeadlessUntil(t *testing.T, a *Adapter, task string, done func() bool) []Line {
	t.Helper()
	argv, err := a.Argv(task)
	if err != nil {
		t.Fatal(err)
	}
	// The limit only keeps a hung claude from hanging the suite.
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = w.ws, w.env(a)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	closeIn := func() { once.Do(func() { stdin.Close() }) }
	if _, err := stdin.Write(a.InitialInput(task)); err != nil {
		t.Fatal(err)
	}
	// Read in raw chunks through the Decoder, as the runner's output pump will.
	var lines []Line
	var dec Decoder
	take := func(ls []Line) {
		for _, l := range ls {
			lines = append(lines, l)
			if l.Kind == "result" && (done == nil || done()) {
				closeIn()
			}
		}
	}
	buf := make([]byte, 4096)
	for {
		n, err := stdout.Read(buf)
		take(dec.Write(buf[:n]))
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	take(dec.Flush())
	closeIn()
	if err := cmd.Wait(); err != nil {
		t.Logf("claude exited: %v\nstderr:\n%s", err, stderr.String())
	}
	if ctx.Err() != nil {
		t.Fatalf("claude did not finish; stderr:\n%s", stderr.String())
	}
	return lines
}

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

package acp

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	fg "github.com/sentinelhq/sentinel/internal/fakegemini"
	"github.com/sentinelhq/sentinel/internal/poll"
)

// These tests drive the real Gemini CLI (`gemini --acp`) as the agent, its
// model replaced by the fake Gemini API in internal/fakegemini, with no
// sandbox: Sentinel's side of ACP against a real agent.

const geminiVersion = "0.61.0"

// needGemini skips without the Gemini CLI, except under CI=true, where it
// fails.
func needGemini(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("gemini"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("gemini is not on PATH; CI must install it: npm install -g @google/gemini-cli@" + geminiVersion)
		}
		t.Skip("gemini is not on PATH; install it with: npm install -g @google/gemini-cli@" + geminiVersion)
	}
}

// geminiRun is one `gemini --acp` session against a fake model.
type geminiRun struct {
	model *fg.Server
	ws    string
	sess  *Session

	mu    sync.Mutex
	asked []approvals.Request
	lines []Line
}

// startGemini starts gemini --acp in a fresh workspace against script;
// decide answers every permission request (after it is recorded) and may
// use the session, which it is handed; inWS, when set, is told the
// workspace before the agent starts.
func startGemini(t *testing.T, task string, script fg.Script, decide func(*Session, approvals.Request) approvals.Decision, inWS func(string)) *geminiRun {
	t.Helper()
	needGemini(t)
	model, home := fg.StartWithHome(t, script)
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	r := &geminiRun{model: model, ws: ws}
	if inWS != nil {
		inWS(ws)
	}
	ready := make(chan *Session, 1)
	var sess *Session
	var once sync.Once
	session := func() *Session {
		once.Do(func() { sess = <-ready })
		return sess
	}
	cmd := exec.Command("gemini", "--acp")
	cmd.Dir = ws
	// No proxy, no real Google credentials, and not CI (gemini-cli reads
	// CI): the same run here and in CI.
	cmd.Env = append(os.Environ(), "HTTP_PROXY=", "HTTPS_PROXY=", "http_proxy=", "https_proxy=", "ALL_PROXY=", "all_proxy=",
		"GOOGLE_API_KEY=", "GOOGLE_GENAI_USE_VERTEXAI=", "GOOGLE_CLOUD_PROJECT=", "CI=")
	cmd.Env = append(cmd.Env, model.Env(home)...)
	var stderr strings.Builder
	var stderrMu sync.Mutex
	s, err := Start(context.Background(), cmd, Config{
		Task: task, Workspace: ws, NoReadDelegation: true,
		Stderr: writerFunc(func(p []byte) { stderrMu.Lock(); stderr.Write(p); stderrMu.Unlock() }),
		Ask: func(_ context.Context, req approvals.Request) approvals.Decision {
			r.mu.Lock()
			r.asked = append(r.asked, req)
			r.mu.Unlock()
			return decide(session(), req)
		},
		OnLine: func(l Line) { r.mu.Lock(); r.lines = append(r.lines, l); r.mu.Unlock() },
	})
	if err != nil {
		t.Fatalf("acp.Start(gemini --acp): %v", err)
	}
	ready <- s
	r.sess = s
	t.Cleanup(func() {
		s.Stop(2 * time.Second)
		if t.Failed() {
			stderrMu.Lock()
			t.Logf("gemini stderr:\n%s", stderr.String())
			stderrMu.Unlock()
			t.Logf("journal lines:\n%s", r.journal())
			for i, q := range model.Requests() {
				last := ""
				if texts := q.UserTexts(); len(texts) > 0 {
					last = texts[len(texts)-1]
				}
				t.Logf("main request %d: last user text %q, last function responses %+v", i, last, q.LastFunctionResponses())
			}
		}
	})
	return r
}

type writerFunc func([]byte)

func (w writerFunc) Write(p []byte) (int, error) { w(p); return len(p), nil }

// wait waits for the session to end; a generous bound turns a hang into a
// failure (not a timing assertion).
func (r *geminiRun) wait(t *testing.T) int {
	t.Helper()
	done := make(chan int, 1)
	go func() { done <- r.sess.Wait() }()
	select {
	case code := <-done:
		return code
	case <-time.After(3 * time.Minute):
		t.Fatalf("the gemini session did not end\n%s", r.journal())
		return -1
	}
}

func (r *geminiRun) requests() []approvals.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]approvals.Request(nil), r.asked...)
}

func (r *geminiRun) journal() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	for _, l := range r.lines {
		b.WriteString(string(l.Lane) + " " + string(l.Kind) + ": " + l.Text + "\n")
	}
	return b.String()
}

// userSaid reports whether the request's last user content (what the
// client sent for this turn) holds text.
func userSaid(q *fg.Request, text string) bool {
	for i := len(q.Contents) - 1; i >= 0; i-- {
		c := q.Contents[i]
		if c.Role == "model" {
			return false
		}
		for _, p := range c.Parts {
			if p.Response == nil && strings.Contains(p.Text, text) {
				return true
			}
		}
	}
	return false
}

func saying(text string) func(*fg.Request) bool {
	return func(q *fg.Request) bool { return userSaid(q, text) }
}

// waitFile waits for path to exist; the bound only turns a hang into a
// failure.
func waitFile(path string) bool {
	return poll.Until(2*time.Minute, func() bool { _, err := os.Stat(path); return err == nil })
}

// Steering cancels the running turn and becomes the next prompt: the model
// sees it as the user's message and the session carries on.
func TestGeminiSteering(t *testing.T) {
	t.Parallel()
	const steer = "stop and write steer.txt instead"
	tests := []struct {
		name string
		// pending steers from inside the permission request, before it is
		// answered; otherwise once the allowed command is running.
		pending bool
	}{
		{"while the permission request is pending", true},
		{"while the command runs", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// steered gets Steer's result once the slow command was asked about.
			steered := make(chan error, 1)
			var asked atomic.Bool
			var started string
			r := startGemini(t, "make slow.txt", fg.Script{
				fg.Reply(fg.Text("Working on it."), fg.ShellCommand("touch started.txt && sleep 30 && echo slow > slow.txt", "")),
				{When: saying(steer), Items: []fg.Item{fg.WriteFile("steer.txt", "steered\n")}},
				{When: fg.AfterFunctionResponse, Items: []fg.Item{fg.Text("Wrote steer.txt.")}},
			}, func(s *Session, q approvals.Request) approvals.Decision {
				if strings.Contains(q.Command, "sleep 30") && !asked.Swap(true) {
					if tt.pending {
						steered <- s.Steer(steer)
					} else {
						go func() {
							if !waitFile(started) {
								steered <- errors.New("the allowed command never started")
								return
							}
							steered <- s.Steer(steer)
						}()
					}
				}
				return approvals.Decision{Outcome: approvals.OutcomeAllow, By: "test"}
			}, func(ws string) { started = filepath.Join(ws, "started.txt") })
			code := r.wait(t)
			if !asked.Load() {
				t.Fatalf("Sentinel was never asked about the slow command")
			}
			if err := <-steered; err != nil {
				t.Fatalf("Steer: %v", err)
			}
			if code != 0 {
				t.Errorf("Wait() = %d, want 0 (the last turn ended with end_turn)", code)
			}
			reqs := r.model.Requests()
			if len(reqs) < 2 || !userSaid(reqs[1], steer) {
				t.Fatalf("the model's request after the steered turn does not carry %q as the user's message (%d main requests)", steer, len(reqs))
			}
			if got, err := os.ReadFile(filepath.Join(r.ws, "steer.txt")); err != nil || string(got) != "steered\n" {
				t.Errorf("steer.txt = %q, %v; the session did not go on after steering", got, err)
			}
			if _, err := os.Stat(started); tt.pending && err == nil {
				t.Errorf("the command ran although its permission request was pending when the turn was cancelled")
			}
			if _, err := os.Stat(filepath.Join(r.ws, "slow.txt")); err == nil {
				t.Errorf("slow.txt exists: the steered-away command ran to the end")
			}
			if j := r.journal(); !strings.Contains(j, "turn ended: cancelled") {
				t.Errorf("journal has no cancelled turn:\n%s", j)
			}
		})
	}
}

// A remembered grant is Sentinel's: the agent is answered allow_once, so
// its next command of the same kind comes back to Sentinel.
func TestGeminiRememberedGrantStillAsksEachCall(t *testing.T) {
	t.Parallel()
	r := startGemini(t, "make one.txt and two.txt", fg.Script{
		fg.Reply(fg.ShellCommand("echo one > one.txt", "")),
		{When: fg.AfterFunctionResponse, Items: []fg.Item{fg.ShellCommand("echo two > two.txt", "")}},
		{When: fg.AfterFunctionResponse, Items: []fg.Item{fg.Text("Both made.")}},
	}, func(_ *Session, q approvals.Request) approvals.Decision {
		return approvals.Decision{Outcome: approvals.OutcomeAllow, By: "person", Remember: true}
	}, nil)
	if code := r.wait(t); code != 0 {
		t.Errorf("Wait() = %d, want 0", code)
	}
	var cmds []string
	for _, q := range r.requests() {
		cmds = append(cmds, q.Command)
	}
	if len(cmds) != 2 || cmds[0] != "echo one > one.txt" || cmds[1] != "echo two > two.txt" {
		t.Errorf("Sentinel was asked about %q; want both commands (an allow_always would have let gemini run the second unasked)", cmds)
	}
	for f, want := range map[string]string{"one.txt": "one\n", "two.txt": "two\n"} {
		if got, err := os.ReadFile(filepath.Join(r.ws, f)); err != nil || string(got) != want {
			t.Errorf("%s = %q, %v; want %q", f, got, err, want)
		}
	}
}

// A denial's message reaches the model as a follow-up prompt once its turn
// ends, the denied command does not run, and the session then ends well.
func TestGeminiDenialReasonReachesTheModel(t *testing.T) {
	t.Parallel()
	victim := t.TempDir()
	writeFile(t, filepath.Join(victim, "keep.txt"), "keep", 0o644)
	r := startGemini(t, "clean up", fg.Script{
		fg.Reply(fg.Text("Deleting."), fg.ShellCommand("rm -rf "+victim, "")),
		{When: fg.AfterFunctionResponse, Items: []fg.Item{fg.Text("It was refused.")}},
		{When: saying("no deleting"), Items: []fg.Item{fg.Text("Understood; leaving it.")}},
	}, func(_ *Session, q approvals.Request) approvals.Decision {
		return approvals.Decision{Outcome: approvals.OutcomeDeny, By: "policy:no-rm", Reason: "rm is denied", Message: "no deleting"}
	}, nil)
	if code := r.wait(t); code != 0 {
		t.Errorf("Wait() = %d, want 0", code)
	}
	if st := r.sess.Status(); st != "end_turn" {
		t.Errorf("Status() = %q, want end_turn", st)
	}
	if _, err := os.Stat(filepath.Join(victim, "keep.txt")); err != nil {
		t.Errorf("the denied rm -rf ran: %v", err)
	}
	reqs := r.model.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d main-loop requests, want 3 (the call, its refusal, the follow-up)", len(reqs))
	}
	if resp, ok := reqs[1].FunctionResponse("run_shell_command"); !ok || !resp.IsError() {
		t.Errorf("the shell call's response %+v, %v; want an error (refused)", resp, ok)
	}
	if userSaid(reqs[1], "no deleting") {
		t.Errorf("the reason arrived inside the turn; it should come after the turn ends")
	}
	if !userSaid(reqs[2], "no deleting") || !userSaid(reqs[2], "rm -rf "+victim) {
		t.Errorf("the follow-up prompt %q does not carry the denied command and its reason", reqs[2].UserTexts())
	}
	if r.model.Used() != 3 {
		t.Errorf("%d scripted turns used, want 3", r.model.Used())
	}
}

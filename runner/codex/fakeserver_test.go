package codex

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/policy"
)

// The test binary doubles as a scripted app-server (no codex needed), to
// pin how the Session answers requests a real Codex rarely sends.
const envFakeServer = "SENTINEL_CODEX_FAKE_SERVER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(envFakeServer); mode != "" {
		os.Exit(fakeAppServer(mode))
	}
	if dir := os.Getenv(envFakeMCP); dir != "" {
		os.Exit(fakeMCPServer(dir))
	}
	os.Exit(m.Run())
}

// fakeAppServer answers the handshake, sends the scripted server requests,
// writes every answer it gets to stdout as a "test/answer" notification
// (which the Session journals as nothing) and to stderr, then completes the turn.
func fakeAppServer(mode string) int {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 16<<20)
	out := json.NewEncoder(os.Stdout)
	policy, reviewer := "untrusted", "user"
	switch mode {
	case "policy-never":
		policy = "never"
	case "reviewer-auto":
		reviewer = "auto_review"
	}
	requests := []map[string]any{
		{"method": MethodCommandApproval, "params": map[string]any{"itemId": "i1", "turnId": "u1", "threadId": "t1", "startedAtMs": 1, "command": "/bin/bash -lc 'make build'", "cwd": "/ws/sub"}},
		{"method": MethodCommandApproval, "params": map[string]any{"itemId": "i2", "turnId": "u1", "threadId": "t1", "startedAtMs": 1, "command": nil}},
		{"method": MethodFileChangeApproval, "params": map[string]any{"itemId": "unknown", "turnId": "u1", "threadId": "t1", "startedAtMs": 1}},
		{"method": MethodFileChangeApproval, "params": map[string]any{"itemId": "f1", "turnId": "u1", "threadId": "t1", "startedAtMs": 1}},
		{"method": MethodExecApprovalV1, "params": map[string]any{"callId": "c1", "conversationId": "t1", "command": []string{"bash", "-lc", "boom now"}, "cwd": "/ws", "parsedCmd": []any{}}},
		{"method": MethodPatchApprovalV1, "params": map[string]any{"callId": "c2", "conversationId": "t1", "fileChanges": map[string]any{"/ws/new.txt": map[string]any{"type": "add", "content": "x"}}}},
		{"method": "item/permissions/requestApproval", "params": map[string]any{"itemId": "p1", "turnId": "u1", "threadId": "t1", "cwd": "/ws", "permissions": map[string]any{}, "startedAtMs": 1}},
	}
	answers := map[string]json.RawMessage{}
	for in.Scan() {
		var m message
		if json.Unmarshal(in.Bytes(), &m) != nil {
			return 3
		}
		switch {
		case m.Method == "initialize":
			out.Encode(map[string]any{"id": m.ID, "result": map[string]any{"userAgent": "fake"}})
		case m.Method == "thread/start":
			out.Encode(map[string]any{"id": m.ID, "result": map[string]any{"thread": map[string]any{"id": "t1"}, "approvalPolicy": policy, "approvalsReviewer": reviewer}})
		case m.Method == "turn/start":
			out.Encode(map[string]any{"id": m.ID, "result": map[string]any{"turn": map[string]any{"id": "u1"}}})
			out.Encode(map[string]any{"method": "turn/started", "params": map[string]any{"threadId": "t1", "turn": map[string]any{"id": "u1"}}})
			out.Encode(map[string]any{"method": "item/started", "params": map[string]any{"turnId": "u1", "item": map[string]any{"type": "fileChange", "id": "f1", "status": "inProgress",
				"changes": []any{map[string]any{"path": "a.go", "diff": "", "kind": map[string]any{"type": "update", "move_path": "b.go"}}}}}})
			if mode == "tool-note" { // a command ran; the turn ends with the next steer
				out.Encode(map[string]any{"method": "item/completed", "params": map[string]any{"turnId": "u1", "item": map[string]any{"type": "commandExecution", "id": "c9", "status": "failed", "command": "npm install left-pad", "exitCode": 1}}})
				continue
			}
			for i, r := range requests {
				r["id"] = 100 + i
				out.Encode(r)
			}
		case m.Method == "turn/steer":
			out.Encode(map[string]any{"id": m.ID, "result": map[string]any{"turnId": "u1"}})
			fmt.Fprintf(os.Stderr, "steer %s\n", m.Params)
			if mode == "tool-note" {
				out.Encode(map[string]any{"method": "turn/completed", "params": map[string]any{"threadId": "t1", "turn": map[string]any{"id": "u1", "status": "completed"}}})
			}
		case m.Method == "" && len(m.ID) > 0:
			ans := m.Result
			if m.Error != nil {
				ans, _ = json.Marshal(map[string]any{"error": m.Error.Message})
			}
			answers[string(m.ID)] = ans
			fmt.Fprintf(os.Stderr, "answer %s %s\n", m.ID, ans)
			if len(answers) == len(requests) {
				out.Encode(map[string]any{"method": "turn/completed", "params": map[string]any{"threadId": "t1", "turn": map[string]any{"id": "u1", "status": "completed"}}})
			}
		}
	}
	return 0
}

// stubAsker allows everything except commands containing "boom", for which
// the broker is unreachable.
type stubAsker struct {
	mu   sync.Mutex
	reqs []approvals.Request
}

func (a *stubAsker) Ask(_ context.Context, r approvals.Request) (approvals.Decision, error) {
	a.mu.Lock()
	a.reqs = append(a.reqs, r)
	a.mu.Unlock()
	if strings.Contains(r.Command, "boom") {
		return approvals.Decision{Outcome: approvals.OutcomeDeny, By: "error", Reason: "broker gone"}, errors.New("broker gone")
	}
	return approvals.Decision{Outcome: approvals.OutcomeAllow, By: "person"}, nil
}

func startFake(t *testing.T, mode string, asker Asker) (*Session, *strings.Builder, error) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), envFakeServer+"="+mode)
	var mu sync.Mutex
	log := &strings.Builder{}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := Start(ctx, cmd, Config{Task: "t", Workspace: "/ws", Asker: asker,
		Stderr: writerFunc(func(b []byte) { mu.Lock(); log.Write(b); mu.Unlock() })})
	if s != nil {
		s.Wait()
	}
	return s, log, err
}

func TestSessionAnswersEveryApprovalRequest(t *testing.T) {
	asker := &stubAsker{}
	s, log, err := startFake(t, "approvals", asker)
	if err != nil {
		t.Fatal(err)
	}
	if s.Status() != "completed" {
		t.Errorf("status = %q", s.Status())
	}
	want := map[string]string{
		"100": `{"decision":"accept"}`,                                                // allowed command
		"101": `{"decision":"decline"}`,                                               // no command: fail closed
		"102": `{"decision":"decline"}`,                                               // unknown file change item: fail closed
		"103": `{"decision":"accept"}`,                                                // known item: its paths were asked
		"104": `{"decision":"denied"}`,                                                // broker unreachable: v1 deny
		"105": `{"decision":"approved"}`,                                              // v1 patch
		"106": `{"error":"Sentinel does not grant item/permissions/requestApproval"}`, // never granted
	}
	for id, ans := range want {
		if !strings.Contains(log.String(), "answer "+id+" "+ans+"\n") {
			t.Errorf("request %s: want answer %s; server saw:\n%s", id, ans, log.String())
		}
	}
	got := map[string]bool{}
	for _, r := range asker.reqs {
		got[fmt.Sprintf("%s %s%s @%s", r.Kind, r.Command, r.Path, r.Cwd)] = true
	}
	for _, w := range []string{
		string(policy.KindShell) + " make build @/ws/sub",
		string(policy.KindEdit) + " /ws/a.go @/ws",
		string(policy.KindWrite) + " /ws/b.go @/ws",
		string(policy.KindShell) + " boom now @/ws",
		string(policy.KindWrite) + " /ws/new.txt @/ws",
	} {
		if !got[w] {
			t.Errorf("broker was not asked %q; asked %v", w, got)
		}
	}
	if len(asker.reqs) != 5 {
		t.Errorf("broker asked %d times, want 5 (nothing for unreadable or unknown requests)", len(asker.reqs))
	}
	if !strings.Contains(log.String(), "steer ") || !strings.Contains(log.String(), "broker gone") {
		t.Errorf("the deny reason was not steered to the model:\n%s", log.String())
	}
}

func TestStartRefusesAThreadWithoutTheApprovalPolicy(t *testing.T) {
	_, _, err := startFake(t, "policy-never", &stubAsker{})
	if err == nil || !strings.Contains(err.Error(), `approval policy "never"`) && !strings.Contains(err.Error(), "not \"untrusted\"") {
		t.Fatalf("Start = %v, want a refusal naming the approval policy", err)
	}
}

// Codex must not hand approvals to its own reviewer subagent, whatever a
// config layer says: Start refuses the thread.
func TestStartRefusesAThreadWhoseApprovalsAReviewerDecides(t *testing.T) {
	_, _, err := startFake(t, "reviewer-auto", &stubAsker{})
	if err == nil || !strings.Contains(err.Error(), `"auto_review"`) {
		t.Fatalf("Start = %v, want a refusal naming the approvals reviewer", err)
	}
}

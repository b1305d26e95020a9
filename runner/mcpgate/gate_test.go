package mcpgate

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
)

// rig is a gate between a scripted agent and a fake server that records
// every line it receives and answers each request with {"ok":<method>}.
type rig struct {
	t        *testing.T
	agentW   *io.PipeWriter // the agent writes here
	agentR   *bufio.Scanner // and reads the gate's lines here
	mu       sync.Mutex
	received []string // lines the server got
	asked    []approvals.Request
	done     chan error
}

func newRig(t *testing.T, allow func(approvals.Request) bool) *rig {
	t.Helper()
	r := &rig{t: t, done: make(chan error, 1)}
	agentInR, agentInW := io.Pipe()
	agentOutR, agentOutW := io.Pipe()
	serverInR, serverInW := io.Pipe()
	serverOutR, serverOutW := io.Pipe()
	r.agentW = agentInW
	r.agentR = bufio.NewScanner(agentOutR)
	go func() { // the fake server
		sc := bufio.NewScanner(serverInR)
		for sc.Scan() {
			line := sc.Text()
			r.mu.Lock()
			r.received = append(r.received, line)
			r.mu.Unlock()
			msgs := []json.RawMessage{json.RawMessage(line)}
			if strings.HasPrefix(line, "[") {
				_ = json.Unmarshal([]byte(line), &msgs)
			}
			for _, raw := range msgs {
				var m map[string]json.RawMessage
				if json.Unmarshal(raw, &m) == nil && len(m["id"]) > 0 {
					var method string
					_ = json.Unmarshal(m["method"], &method)
					b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m["id"], "result": map[string]any{"ok": method}})
					serverOutW.Write(append(b, '\n'))
				}
			}
		}
		serverOutW.Close()
	}()
	g := &Gate{Server: "files", Adapter: "test", Cwd: "/ws",
		Ask: func(_ context.Context, req approvals.Request) approvals.Decision {
			r.mu.Lock()
			r.asked = append(r.asked, req)
			r.mu.Unlock()
			if allow(req) {
				return approvals.Decision{Outcome: approvals.OutcomeAllow, By: "test"}
			}
			return approvals.Decision{Outcome: approvals.OutcomeDeny, By: "test", Reason: "the test says no", Message: "Sentinel denied this: the test says no"}
		}}
	go func() {
		err := g.Run(context.Background(), agentInR, agentOutW, serverInW, serverOutR)
		agentOutW.Close()
		r.done <- err
	}()
	return r
}

// send writes one line as the agent and returns the gate's next line to it.
func (r *rig) send(line string) map[string]any {
	r.t.Helper()
	r.write(line)
	return r.read()
}

func (r *rig) write(line string) {
	r.t.Helper()
	if _, err := io.WriteString(r.agentW, line+"\n"); err != nil {
		r.t.Fatal(err)
	}
}

func (r *rig) read() map[string]any {
	r.t.Helper()
	if !r.agentR.Scan() {
		r.t.Fatalf("the gate closed the agent's side: %v", r.agentR.Err())
	}
	var m map[string]any
	if err := json.Unmarshal(r.agentR.Bytes(), &m); err != nil {
		r.t.Fatalf("the gate sent the agent %q: %v", r.agentR.Text(), err)
	}
	return m
}

// close ends the agent's side and returns what the server received.
func (r *rig) close() []string {
	r.t.Helper()
	r.agentW.Close()
	for r.agentR.Scan() {
	}
	if err := <-r.done; err != nil {
		r.t.Fatal(err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.received
}

func allowAll(approvals.Request) bool { return true }
func denyAll(approvals.Request) bool  { return false }

func TestGateForwardsAnAllowedCallAndAsksAboutIt(t *testing.T) {
	r := newRig(t, allowAll)
	got := r.send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt"}}}`)
	if got["id"] != float64(7) || got["result"].(map[string]any)["ok"] != "tools/call" {
		t.Fatalf("answer = %v", got)
	}
	recv := r.close()
	if len(recv) != 1 || !strings.Contains(recv[0], `"read_file"`) {
		t.Fatalf("server received %q", recv)
	}
	if len(r.asked) != 1 || r.asked[0].Tool != "mcp__files__read_file" || r.asked[0].Kind != "mcp" ||
		string(r.asked[0].Input) != `{"path":"a.txt"}` || r.asked[0].Adapter != "test" || r.asked[0].Cwd != "/ws" {
		t.Fatalf("asked %+v", r.asked)
	}
}

func TestGateAnswersADeniedCallItselfAndNeverForwardsIt(t *testing.T) {
	r := newRig(t, denyAll)
	got := r.send(`{"jsonrpc":"2.0","id":"call-1","method":"tools/call","params":{"name":"rm","arguments":{}}}`)
	res, _ := got["result"].(map[string]any)
	if got["id"] != "call-1" || res["isError"] != true || !strings.Contains(toJSON(res["content"]), "the test says no") {
		t.Fatalf("answer = %v", got)
	}
	if recv := r.close(); len(recv) != 0 {
		t.Fatalf("the denied call reached the server: %q", recv)
	}
}

func TestGateLetsEverythingElseThrough(t *testing.T) {
	r := newRig(t, denyAll)
	// A notification (no answer), then requests with ids of every kind.
	r.write(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for _, id := range []string{`1`, `"abc"`, `12345678901234567890`} {
		line := `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/list"}`
		r.write(line)
		if !r.agentR.Scan() {
			t.Fatal("no answer")
		}
		if !strings.Contains(r.agentR.Text(), `"id":`+id) {
			t.Errorf("id %s came back as %s", id, r.agentR.Text())
		}
	}
	recv := r.close()
	if len(recv) != 4 || !strings.Contains(recv[0], "notifications/initialized") {
		t.Fatalf("server received %q", recv)
	}
	if len(r.asked) != 0 {
		t.Errorf("asked about %+v", r.asked)
	}
}

func TestGateFailsClosedOnWhatItCannotRead(t *testing.T) {
	r := newRig(t, allowAll)
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"`, // cut short
		`not json at all`,
		`[{"jsonrpc":"2.0","id":1,"method":"tools/call"`,
	} {
		got := r.send(line)
		if got["error"] == nil {
			t.Errorf("%s: answered %v, want a parse error", line, got)
		}
	}
	// Calls it can parse but not judge are answered, not forwarded.
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"arguments":{}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":"rm -rf"}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"x","arguments":[1]}}`,
	} {
		got := r.send(line)
		if res, _ := got["result"].(map[string]any); res["isError"] != true {
			t.Errorf("%s: answered %v, want an error result", line, got)
		}
	}
	got := r.send(`{"jsonrpc":"2.0","id":5,"method":7}`)
	if got["error"] == nil {
		t.Errorf("a numeric method: answered %v", got)
	}
	// A tools/call without an id gets no answer and does not pass.
	r.write(`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"x","arguments":{}}}`)
	if recv := r.close(); len(recv) != 0 {
		t.Fatalf("server received %q", recv)
	}
	if len(r.asked) != 0 {
		t.Errorf("asked about %+v", r.asked)
	}
}

func TestGateReadsTheCallTheWayTheServerWill(t *testing.T) {
	r := newRig(t, func(req approvals.Request) bool { return req.Tool == "mcp__files__list" })
	// A duplicate key: the gate decides on the last one and forwards only that.
	got := r.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list","method":"tools/call","params":{"name":"list","name":"delete_all"}}`)
	if res, _ := got["result"].(map[string]any); res["isError"] != true {
		t.Fatalf("answered %v", got)
	}
	// A method in another case or with spaces is a call too.
	got = r.send(`{"jsonrpc":"2.0","id":2,"method":" Tools/Call","params":{"name":"delete_all"}}`)
	if res, _ := got["result"].(map[string]any); res["isError"] != true {
		t.Fatalf("answered %v", got)
	}
	got = r.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list","arguments":{"a":1,"a":2}}}`)
	if got["result"].(map[string]any)["ok"] != "tools/call" {
		t.Fatalf("answered %v", got)
	}
	recv := r.close()
	if len(recv) != 1 || strings.Contains(recv[0], `"a":1`) || !strings.Contains(recv[0], `"a":2`) {
		t.Fatalf("server received %q", recv)
	}
	if len(r.asked) != 3 || r.asked[0].Tool != "mcp__files__delete_all" || string(r.asked[2].Input) != `{"a":2}` {
		t.Fatalf("asked %+v", r.asked)
	}
}

func TestGateJudgesABatchElementByElement(t *testing.T) {
	r := newRig(t, func(req approvals.Request) bool { return req.Tool == "mcp__files__ok" })
	r.write(`[{"jsonrpc":"2.0","method":"notifications/initialized"},` +
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"bad"}},` +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ok"}},` +
		`{"jsonrpc":"2.0","id":3,"method":"tools/list"}]`)
	answers := map[float64]map[string]any{}
	for range 3 {
		m := r.read()
		answers[m["id"].(float64)] = m
	}
	if res, _ := answers[1]["result"].(map[string]any); res["isError"] != true {
		t.Errorf("the denied call: %v", answers[1])
	}
	if res, _ := answers[2]["result"].(map[string]any); res["ok"] != "tools/call" {
		t.Errorf("the allowed call: %v", answers[2])
	}
	recv := r.close()
	all := strings.Join(recv, "\n")
	if strings.Contains(all, `"bad"`) || !strings.Contains(all, `"ok"`) || !strings.Contains(all, "notifications/initialized") {
		t.Fatalf("server received %q", recv)
	}
	if !strings.Contains(all, `[{"jsonrpc":"2.0","method":"notifications/initialized"},{"id":3`) {
		t.Errorf("the rest of the batch was not passed as a batch: %q", recv)
	}
}

func toJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

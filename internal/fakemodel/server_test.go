package fakemodel

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// post sends body to path and returns the response.
func post(t *testing.T, s *Server, path, body string) *http.Response {
	t.Helper()
	resp, err := http.Post(s.URL+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

type sseEvent struct {
	name string
	data map[string]any
}

// readSSE parses a whole event stream.
func readSSE(t *testing.T, r io.Reader) []sseEvent {
	t.Helper()
	var out []sseEvent
	var cur sseEvent
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			cur.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &cur.data); err != nil {
				t.Fatalf("data line is not JSON: %q", line)
			}
		case line == "":
			out = append(out, cur)
			cur = sseEvent{}
		}
	}
	return out
}

// replay rebuilds the assistant message a client would from the stream:
// each block's text, or a tool's name and its concatenated input JSON.
func replay(t *testing.T, evs []sseEvent) (names []string, blocks []string, stop string) {
	t.Helper()
	for _, e := range evs {
		names = append(names, e.name)
		if e.data["type"] != e.name {
			t.Errorf("event %q carries type %v", e.name, e.data["type"])
		}
		switch e.name {
		case "content_block_start":
			cb := e.data["content_block"].(map[string]any)
			prefix := ""
			if cb["type"] == "tool_use" {
				prefix = cb["name"].(string) + ":"
			}
			blocks = append(blocks, prefix)
		case "content_block_delta":
			d := e.data["delta"].(map[string]any)
			switch d["type"] {
			case "text_delta":
				blocks[len(blocks)-1] += d["text"].(string)
			case "input_json_delta":
				blocks[len(blocks)-1] += d["partial_json"].(string)
			}
		case "message_delta":
			stop = e.data["delta"].(map[string]any)["stop_reason"].(string)
		}
	}
	return names, blocks, stop
}

const mainReq = `{"model":"claude-x","stream":true,"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"do it"}]}`

func TestStreamCarriesTextAndToolUse(t *testing.T) {
	s, err := Start(Script{Reply(Text("On it."), Bash("ls -la"))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	resp := post(t, s, "/v1/messages?beta=true", mainReq)
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type = %q, want text/event-stream", ct)
	}
	names, blocks, stop := replay(t, readSSE(t, resp.Body))
	wantNames := "message_start content_block_start content_block_delta content_block_stop " +
		"content_block_start content_block_delta content_block_delta content_block_stop message_delta message_stop"
	if got := strings.Join(names, " "); got != wantNames {
		t.Errorf("events:\n got %s\nwant %s", got, wantNames)
	}
	if len(blocks) != 2 || blocks[0] != "On it." {
		t.Fatalf("blocks = %q", blocks)
	}
	var in map[string]string
	if !strings.HasPrefix(blocks[1], "Bash:") || json.Unmarshal([]byte(strings.TrimPrefix(blocks[1], "Bash:")), &in) != nil || in["command"] != "ls -la" {
		t.Errorf("tool block = %q, want Bash with command ls -la", blocks[1])
	}
	if stop != "tool_use" {
		t.Errorf("stop_reason = %q, want tool_use", stop)
	}
}

func TestTurnsPlayInOrderAndMatchOnTheRequest(t *testing.T) {
	const withResult = `{"model":"m","stream":true,"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"x"},
		{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","is_error":true,"content":[{"type":"text","text":"denied: no"}]}]}]}`
	s, err := Start(Script{
		{When: AfterToolResult, Blocks: []Block{Text("saw the result")}},
		Reply(Text("first")),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tests := []struct{ body, want string }{
		{mainReq, "first"}, // the tool_result turn does not match yet
		{withResult, "saw the result"},
		{withResult, Exhausted},
	}
	for i, tc := range tests {
		_, blocks, stop := replay(t, readSSE(t, post(t, s, "/v1/messages", tc.body).Body))
		if len(blocks) != 1 || blocks[0] != tc.want || stop != "end_turn" {
			t.Errorf("request %d: blocks %q stop %q, want %q end_turn", i, blocks, stop, tc.want)
		}
	}
	reqs := s.Requests()
	if len(reqs) != 3 {
		t.Fatalf("recorded %d requests, want 3", len(reqs))
	}
	got := reqs[1].LastToolResults()
	if len(got) != 1 || got[0] != (ToolResult{ToolUseID: "t1", Content: "denied: no", IsError: true}) {
		t.Errorf("LastToolResults = %+v", got)
	}
	if reqs[0].UserText() != "do it" {
		t.Errorf("UserText = %q", reqs[0].UserText())
	}
}

func TestSideRequestsDoNotConsumeTurns(t *testing.T) {
	s, err := Start(Script{Reply(Text("the real turn"))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// A title request: no tools, not streamed.
	resp := post(t, s, "/v1/messages", `{"model":"claude-haiku","system":[{"type":"text","text":"Generate a title"}],"messages":[{"role":"user","content":"x"}]}`)
	var msg struct {
		Content []struct{ Text string } `json:"content"`
		Stop    string                  `json:"stop_reason"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&msg); err != nil || len(msg.Content) != 1 || msg.Content[0].Text != s.SideReply {
		t.Fatalf("side reply = %+v (%v), want %q", msg, err, s.SideReply)
	}
	_, blocks, _ := replay(t, readSSE(t, post(t, s, "/v1/messages", mainReq).Body))
	if len(blocks) != 1 || blocks[0] != "the real turn" {
		t.Errorf("main request got %q, want the scripted turn", blocks)
	}
	if side := s.SideRequests(); len(side) != 1 || side[0].System != "Generate a title" {
		t.Errorf("side requests = %d", len(side))
	}
	if s.Used() != 1 || len(s.Requests()) != 1 {
		t.Errorf("used %d turns for %d main requests, want 1 and 1", s.Used(), len(s.Requests()))
	}
}

func TestOtherEndpoints(t *testing.T) {
	s, err := Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tests := []struct {
		method, path string
		code         int
		body         string
	}{
		{http.MethodPost, "/v1/messages/count_tokens", 200, `"input_tokens"`},
		{http.MethodGet, "/v1/models", 200, `"data":[]`},
		{http.MethodGet, "/v1/nope", 404, "no such endpoint GET /v1/nope"},
	}
	for _, tc := range tests {
		req, _ := http.NewRequest(tc.method, s.URL+tc.path, strings.NewReader(mainReq))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.code || !strings.Contains(string(b), tc.body) {
			t.Errorf("%s %s = %d %s, want %d containing %s", tc.method, tc.path, resp.StatusCode, b, tc.code, tc.body)
		}
	}
	if n := len(s.OtherRequests()); n != 3 {
		t.Errorf("recorded %d other requests, want 3", n)
	}
	if s.Used() != 0 {
		t.Errorf("other endpoints used %d turns", s.Used())
	}
}

func TestLastToolResultsLookPastSystemMessages(t *testing.T) {
	s, err := Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tests := []struct {
		name, messages string
		want           int
	}{
		{"results then a system reminder", `[{"role":"user","content":"x"},
			{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{}}]},
			{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]},
			{"role":"system","content":[{"type":"text","text":"reminder"}]}]`, 1},
		{"results before the model's last turn are old", `[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t0","content":"old"}]},
			{"role":"assistant","content":"done"},{"role":"user","content":"next"}]`, 0},
	}
	for _, tc := range tests {
		post(t, s, "/v1/messages", `{"model":"m","tools":[{"name":"Bash"}],"messages":`+tc.messages+`}`)
		reqs := s.Requests()
		r := reqs[len(reqs)-1]
		if got := len(r.LastToolResults()); got != tc.want || AfterToolResult(r) != (tc.want > 0) {
			t.Errorf("%s: %d last tool results, want %d", tc.name, got, tc.want)
		}
	}
}

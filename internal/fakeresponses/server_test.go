package fakeresponses

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// post sends a Responses request and returns the SSE events' names and data.
func post(t *testing.T, s *Server, body string) ([]string, []map[string]any) {
	t.Helper()
	resp, err := http.Post(s.BaseURL()+"/responses", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	var names []string
	var datas []map[string]any
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			names = append(names, strings.TrimPrefix(line, "event: "))
		case strings.HasPrefix(line, "data: "):
			var d map[string]any
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &d); err != nil {
				t.Fatalf("data is not JSON: %v", err)
			}
			datas = append(datas, d)
		}
	}
	return names, datas
}

const withTools = `{"model":"m","stream":true,"tools":[{"type":"function","name":"exec_command"},{"type":"custom","name":"apply_patch"}],"input":[`

func TestStreamsScriptedTurnsAndRecordsOutputs(t *testing.T) {
	s, err := Start(Script{
		Reply(Text("Looking."), ExecCommand("ls -la", "/ws")),
		{When: AfterOutput, Items: []Item{CustomToolCall("apply_patch", "*** Begin Patch\n*** End Patch\n")}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	names, datas := post(t, s, withTools+`{"type":"message","role":"user","content":[{"type":"input_text","text":"do it"}]}]}`)
	want := "response.created response.output_item.added response.content_part.added response.output_text.delta response.output_text.done response.output_item.done response.output_item.added response.output_item.done response.completed"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("events:\n %s\nwant\n %s", got, want)
	}
	call := datas[7]["item"].(map[string]any)
	if call["type"] != "function_call" || call["name"] != "exec_command" || call["arguments"] != `{"cmd":"ls -la","workdir":"/ws"}` {
		t.Errorf("function call item = %v", call)
	}
	if datas[3]["delta"] != "Looking." {
		t.Errorf("text delta = %v", datas[3]["delta"])
	}
	done := datas[8]["response"].(map[string]any)
	if done["status"] != "completed" || len(done["output"].([]any)) != 2 {
		t.Errorf("response.completed = %v", done)
	}

	callID := call["call_id"].(string)
	names, datas = post(t, s, withTools+`{"type":"message","role":"user","content":[{"type":"input_text","text":"do it"}]},`+
		`{"type":"function_call","call_id":"`+callID+`","name":"exec_command","arguments":"{}"},`+
		`{"type":"function_call_output","call_id":"`+callID+`","output":"exec command rejected by user"},`+
		`{"type":"message","role":"user","content":[{"type":"input_text","text":"Sentinel denied it"}]}]}`)
	if item := datas[1]["item"].(map[string]any); item["type"] != "custom_tool_call" || item["name"] != "apply_patch" {
		t.Errorf("second turn's item = %v", item)
	}
	if n := len(names); names[n-1] != "response.completed" {
		t.Errorf("last event %q", names[n-1])
	}

	reqs := s.Requests()
	if len(reqs) != 2 || s.Used() != 2 {
		t.Fatalf("recorded %d requests, used %d turns", len(reqs), s.Used())
	}
	out, ok := reqs[1].Output(callID)
	if !ok || out.Text != "exec command rejected by user" {
		t.Errorf("output for %s = %+v, %v", callID, out, ok)
	}
	if got := reqs[1].UserTexts(); len(got) != 2 || got[1] != "Sentinel denied it" {
		t.Errorf("user texts = %q", got)
	}
	if reqs[1].ToolType("apply_patch") != "custom" || !reqs[1].HasTool("exec_command") {
		t.Errorf("tools = %+v", reqs[1].Tools)
	}
}

func TestExhaustedSideAndOtherRequests(t *testing.T) {
	s, err := Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, datas := post(t, s, withTools+`]}`)
	if d := datas[3]["delta"]; d != Exhausted {
		t.Errorf("exhausted script says %v", d)
	}
	_, datas = post(t, s, `{"model":"m","stream":true,"input":[]}`)
	if d := datas[3]["delta"]; d != s.SideReply {
		t.Errorf("side request answered %v", d)
	}
	resp, err := http.Get(s.URL + "/v1/nope")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound || len(s.OtherRequests()) != 1 || len(s.SideRequests()) != 1 || len(s.Requests()) != 1 {
		t.Errorf("status %d, other %d side %d main %d", resp.StatusCode, len(s.OtherRequests()), len(s.SideRequests()), len(s.Requests()))
	}
}

// A turn with Make answers from the request: here the output it reads names
// the call it makes.
func TestMakeBuildsTheTurnFromTheRequest(t *testing.T) {
	s, err := Start(Script{{When: AfterOutput, Make: func(r *Request) []Item {
		return []Item{ExecCommand("echo "+r.LastOutputs()[0].Text, "")}
	}}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, datas := post(t, s, withTools+`{"type":"function_call","call_id":"c1","name":"exec_command","arguments":"{}"},`+
		`{"type":"function_call_output","call_id":"c1","output":"session 42"}]}`)
	call := datas[2]["item"].(map[string]any) // output_item.done
	if call["arguments"] != `{"cmd":"echo session 42"}` {
		t.Errorf("made call = %v", call)
	}
}

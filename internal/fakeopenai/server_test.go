package fakeopenai

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

func post(t *testing.T, s *Server, body string) (*http.Response, map[string]any) {
	t.Helper()
	resp, err := http.Post(s.URL+"/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&v)
	return resp, v
}

func TestRepliesInOrderThenTheLastRepeats(t *testing.T) {
	s, err := Start(Reply{Content: "one"}, Reply{Status: 500})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	body := `{"model":"m","messages":[{"role":"system","content":"sys"},{"role":"user","content":[{"type":"text","text":"hello"}]}]}`
	resp, v := post(t, s, body)
	msg := v["choices"].([]any)[0].(map[string]any)["message"].(map[string]any)
	if resp.StatusCode != 200 || msg["content"] != "one" {
		t.Fatalf("first reply: %d %v", resp.StatusCode, v)
	}
	for i := 0; i < 2; i++ {
		if resp, _ := post(t, s, body); resp.StatusCode != 500 {
			t.Fatalf("reply %d: status %d, want the last reply (500) repeated", i+2, resp.StatusCode)
		}
	}
	r := s.Requests()[0]
	if r.Model != "m" || r.SystemText() != "sys" || r.UserText() != "hello" {
		t.Errorf("recorded %+v", r)
	}
}

func TestRefusalShape(t *testing.T) {
	s, _ := Start(Reply{Refusal: "no"})
	defer s.Close()
	_, v := post(t, s, `{"model":"m","messages":[]}`)
	msg := v["choices"].([]any)[0].(map[string]any)["message"].(map[string]any)
	if msg["refusal"] != "no" || msg["content"] != nil {
		t.Fatalf("message %v", msg)
	}
}

func TestStartFuncChoosesByRequest(t *testing.T) {
	s, err := StartFunc(func(r *Request) Reply {
		if strings.Contains(r.UserText(), "push") {
			return Reply{Content: "no"}
		}
		return Reply{Status: 503}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, v := post(t, s, `{"model":"m","messages":[{"role":"user","content":"git push"}]}`)
	if msg := v["choices"].([]any)[0].(map[string]any)["message"].(map[string]any); msg["content"] != "no" {
		t.Fatalf("push: %v", v)
	}
	if resp, _ := post(t, s, `{"model":"m","messages":[{"role":"user","content":"ls"}]}`); resp.StatusCode != 503 {
		t.Fatalf("ls: status %d", resp.StatusCode)
	}
	if len(s.Requests()) != 2 {
		t.Errorf("recorded %d requests", len(s.Requests()))
	}
}

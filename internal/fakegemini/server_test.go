package fakegemini

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// chunk is the part of a GenerateContentResponse the tests look at.
type chunk struct {
	Candidates []struct {
		Content struct {
			Role  string            `json:"role"`
			Parts []json.RawMessage `json:"parts"`
		} `json:"content"`
		FinishReason string `json:"finishReason"`
	} `json:"candidates"`
	UsageMetadata *struct {
		PromptTokenCount     int `json:"promptTokenCount"`
		CandidatesTokenCount int `json:"candidatesTokenCount"`
	} `json:"usageMetadata"`
}

func post(t *testing.T, s *Server, path, body string) *http.Response {
	t.Helper()
	resp, err := http.Post(s.URL+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// stream posts a streamGenerateContent request and returns its SSE chunks.
func stream(t *testing.T, s *Server, body string) []chunk {
	t.Helper()
	resp := post(t, s, "/v1beta/models/gemini-x:streamGenerateContent?alt=sse", body)
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	var out []chunk
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "data: ") {
			continue
		}
		var c chunk
		if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &c); err != nil {
			t.Fatalf("data is not JSON: %v", err)
		}
		out = append(out, c)
	}
	return out
}

// generate posts a generateContent request and returns its one response.
func generate(t *testing.T, s *Server, body string) chunk {
	t.Helper()
	resp := post(t, s, "/v1beta/models/gemini-lite:generateContent", body)
	var c chunk
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
		t.Fatal(err)
	}
	return c
}

func text(t *testing.T, c chunk) string {
	t.Helper()
	var out []string
	for _, raw := range c.Candidates[0].Content.Parts {
		var p struct{ Text string }
		_ = json.Unmarshal(raw, &p)
		out = append(out, p.Text)
	}
	return strings.Join(out, "")
}

const tools = `"tools":[{"functionDeclarations":[{"name":"run_shell_command"},{"name":"write_file"}]}]`

func TestStreamsScriptedTurnsAndReadsFunctionResponses(t *testing.T) {
	s, err := Start(Script{
		{Items: []Item{Text("Looking."), ShellCommand("ls -la", "sub")}, Usage: Usage{Prompt: 7, Candidates: 3}},
		{When: AfterFunctionResponse, Items: []Item{Text("Denied, stopping.")}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	chunks := stream(t, s, `{"contents":[{"role":"user","parts":[{"text":"do it"}]}],`+tools+`}`)
	if len(chunks) != 2 {
		t.Fatalf("%d chunks, want one per item", len(chunks))
	}
	if got := text(t, chunks[0]); got != "Looking." {
		t.Errorf("first chunk text %q", got)
	}
	if string(chunks[1].Candidates[0].Content.Parts[0]) != `{"functionCall":{"args":{"command":"ls -la","description":"scripted by the test","dir_path":"sub"},"name":"run_shell_command"}}` {
		t.Errorf("call part = %s", chunks[1].Candidates[0].Content.Parts[0])
	}
	last := chunks[1]
	if last.Candidates[0].FinishReason != "STOP" || last.UsageMetadata == nil || last.UsageMetadata.PromptTokenCount != 7 || last.UsageMetadata.CandidatesTokenCount != 3 {
		t.Errorf("last chunk: finish %q usage %+v", last.Candidates[0].FinishReason, last.UsageMetadata)
	}
	if chunks[0].UsageMetadata != nil || chunks[0].Candidates[0].FinishReason != "" {
		t.Errorf("first chunk already finished: %+v", chunks[0])
	}

	chunks = stream(t, s, `{"contents":[{"role":"user","parts":[{"text":"do it"}]},`+
		`{"role":"model","parts":[{"functionCall":{"name":"run_shell_command","args":{"command":"ls -la"}}}]},`+
		`{"role":"user","parts":[{"functionResponse":{"id":"c1","name":"run_shell_command","response":{"error":"[Operation Cancelled] Reason: User denied"}}}]}],`+tools+`}`)
	if got := text(t, chunks[0]); got != "Denied, stopping." {
		t.Errorf("second turn text %q", got)
	}

	reqs := s.Requests()
	if len(reqs) != 2 || s.Used() != 2 {
		t.Fatalf("recorded %d requests, used %d turns", len(reqs), s.Used())
	}
	if reqs[0].Model != "gemini-x" || reqs[0].Action != "streamGenerateContent" || !reqs[0].HasTool("write_file") {
		t.Errorf("first request parsed as %v model %q action %q", reqs[0], reqs[0].Model, reqs[0].Action)
	}
	resp, ok := reqs[1].FunctionResponse("run_shell_command")
	if !ok || !resp.IsError() || resp.ID != "c1" || resp.Output() != "error: [Operation Cancelled] Reason: User denied" {
		t.Errorf("function response = %+v, %v", resp, ok)
	}
	if got := reqs[1].LastFunctionResponses(); len(got) != 1 || len(reqs[0].LastFunctionResponses()) != 0 {
		t.Errorf("last function responses = %+v / %+v", got, reqs[0].LastFunctionResponses())
	}
	if got := reqs[1].UserTexts(); len(got) != 1 || got[0] != "do it" {
		t.Errorf("user texts = %q", got)
	}
}

func TestSideRequestsDoNotConsumeTheScript(t *testing.T) {
	s, err := Start(Script{Reply(Text("main turn"))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	tests := []struct {
		name, body string
		want       string
	}{
		{"routing classifier", `{"contents":[{"role":"user","parts":[{"text":"x"}]}],"generationConfig":{"responseMimeType":"application/json","responseJsonSchema":` +
			`{"type":"OBJECT","properties":{"complexity_reasoning":{"type":"STRING"},"complexity_score":{"type":"INTEGER"}}}}}`,
			`{"complexity_reasoning":"fakegemini","complexity_score":1}`},
		{"next speaker", `{"contents":[],"generationConfig":{"responseJsonSchema":` +
			`{"type":"object","properties":{"next_speaker":{"type":"string","enum":["model","user"]}}}}}`,
			`{"next_speaker":"user"}`},
		{"no schema, no tools", `{"contents":[{"role":"user","parts":[{"text":"summarise"}]}]}`, SideReply},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := text(t, generate(t, s, tt.body)); got != tt.want {
				t.Errorf("answer %s, want %s", got, tt.want)
			}
		})
	}
	if got := text(t, stream(t, s, `{"contents":[],`+tools+`}`)[0]); got != "main turn" {
		t.Errorf("main turn after side requests = %q", got)
	}
	if got := text(t, stream(t, s, `{"contents":[],`+tools+`}`)[0]); got != Exhausted {
		t.Errorf("exhausted script says %q", got)
	}
	if len(s.SideRequests()) != len(tests) || len(s.Requests()) != 2 {
		t.Errorf("side %d main %d", len(s.SideRequests()), len(s.Requests()))
	}
}

func TestOtherEndpointsAndCountTokens(t *testing.T) {
	s, err := Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	resp := post(t, s, "/v1beta/models/m:countTokens", `{"contents":[]}`)
	var ct struct{ TotalTokens int }
	if err := json.NewDecoder(resp.Body).Decode(&ct); err != nil || ct.TotalTokens <= 0 {
		t.Errorf("countTokens = %+v, %v", ct, err)
	}
	// The models list answers, as the real API does (the run's preflight
	// asks it); any other path is 404.
	r, err := http.Get(s.URL + "/v1beta/models")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(r.Body)
	r.Body.Close()
	if r.StatusCode != http.StatusOK || !strings.Contains(string(body), `"models"`) || len(s.OtherRequests()) != 1 {
		t.Errorf("GET /v1beta/models: %d %s, other %d", r.StatusCode, body, len(s.OtherRequests()))
	}
	r, err = http.Get(s.URL + "/v1beta/tunedModels")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(r.Body)
	r.Body.Close()
	if r.StatusCode != http.StatusNotFound || !strings.Contains(string(body), "NOT_FOUND") || len(s.OtherRequests()) != 2 {
		t.Errorf("GET /v1beta/tunedModels: %d %s, other %d", r.StatusCode, body, len(s.OtherRequests()))
	}
}

func TestScriptedFailureAndHang(t *testing.T) {
	s, err := Start(Script{Fail(429), Hang()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	resp := post(t, s, "/v1beta/models/m:streamGenerateContent?alt=sse", `{"contents":[],`+tools+`}`)
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(string(body), "RESOURCE_EXHAUSTED") {
		t.Errorf("failure turn: %d %s", resp.StatusCode, body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.URL+"/v1beta/models/m:streamGenerateContent?alt=sse",
		strings.NewReader(`{"contents":[],`+tools+`}`))
	_, err = http.DefaultClient.Do(req)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("hang turn answered: %v", err)
	}
}

func TestSchemaAnswer(t *testing.T) {
	tests := []struct{ schema, want string }{
		{`{"type":"object","properties":{"unproductive_state_analysis":{"type":"string"},"unproductive_state_confidence":{"type":"number"}}}`,
			`{"unproductive_state_analysis":"fakegemini","unproductive_state_confidence":0}`},
		{`{"type":"object","properties":{"model_choice":{"type":"string","enum":["flash","pro"]}}}`, `{"model_choice":"flash"}`},
		{`{"type":"object","properties":{"n":{"type":"integer","minimum":5},"ok":{"type":"boolean"},"xs":{"type":"array"}}}`,
			`{"n":5,"ok":false,"xs":[]}`},
		{`not json`, `{}`},
	}
	for _, tt := range tests {
		b, _ := json.Marshal(SchemaAnswer(json.RawMessage(tt.schema)))
		if string(b) != tt.want {
			t.Errorf("SchemaAnswer(%s) = %s, want %s", tt.schema, b, tt.want)
		}
	}
}

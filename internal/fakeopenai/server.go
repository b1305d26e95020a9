package fakeopenai

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/sentinelhq/sentinel/internal/fakehttp"
)

// Reply is one scripted answer.
type Reply struct {
	Content string // the assistant message's content
	Refusal string // set: the message is a refusal
	// Status, when not 0 or 200, answers with that HTTP status and an
	// OpenAI-shaped error body.
	Status int
	// Raw, when set, is written as the whole body (status 200), e.g. text
	// that is not JSON.
	Raw string
	// Hang holds the request open until the client gives up or the server
	// closes.
	Hang bool
	// Tokens reported in usage; 0 means 10 in and 5 out.
	PromptTokens, CompletionTokens int
}

// Probe is a healthy answer to the supervisor's probe turn (`sentinel
// supervisor check`, which every run with a supervisor also asks before its
// coder starts): a judgment in the structured shape. Put it first in the
// replies of a run's fake supervisor.
func Probe() Reply { return Reply{Content: `{"decision":"deny","reason":"probe","risk":"low"}`} }

// Request is one request the server received.
type Request struct {
	// Method, Path, Header, Body: the request as it arrived.
	fakehttp.Received

	Model          string
	Messages       []Message
	ResponseFormat json.RawMessage
}

// Message is one chat message of a request (content flattened to text).
type Message struct {
	Role, Content string
}

// Server is a fake chat completions API on 127.0.0.1.
type Server struct {
	// URL is the base URL (ending in /v1) to give the client.
	URL string

	srv     *http.Server
	mu      sync.Mutex
	replies []Reply
	next    int
	reqs    []*Request
	choose  func(*Request) Reply // set by StartFunc
}

// Start listens on a free loopback port. Requests get the replies in order;
// when they run out, the last reply is repeated (so a client's retry sees
// the same failure).
func Start(replies ...Reply) (*Server, error) {
	s := &Server{replies: replies}
	srv, root, err := fakehttp.Serve("fakeopenai", s.serve)
	if err != nil {
		return nil, err
	}
	s.srv, s.URL = srv, root+"/v1"
	return s, nil
}

// Close stops the server, ending any hanging request.
func (s *Server) Close() error { return s.srv.Close() }

// Requests are the chat completion requests received so far.
func (s *Server) Requests() []*Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Request(nil), s.reqs...)
}

// UserText is every user message's content joined with newlines.
func (r *Request) UserText() string {
	var parts []string
	for _, m := range r.Messages {
		if m.Role == "user" {
			parts = append(parts, m.Content)
		}
	}
	return strings.Join(parts, "\n")
}

// SystemText is every system (or developer) message's content.
func (r *Request) SystemText() string {
	var parts []string
	for _, m := range r.Messages {
		if m.Role == "system" || m.Role == "developer" {
			parts = append(parts, m.Content)
		}
	}
	return strings.Join(parts, "\n")
}

func (s *Server) serve(w http.ResponseWriter, hr *http.Request) {
	got := fakehttp.Receive(hr)
	if hr.Method != http.MethodPost || strings.TrimSuffix(hr.URL.Path, "/") != "/v1/chat/completions" {
		writeError(w, http.StatusNotFound, "fakeopenai: no such endpoint "+hr.Method+" "+hr.URL.Path)
		return
	}
	req := parse(got)
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	var rep Reply
	choose := s.choose
	if choose != nil {
		s.mu.Unlock()
		rep = choose(req)
		s.mu.Lock()
	} else if len(s.replies) > 0 {
		i := s.next
		if i >= len(s.replies) {
			i = len(s.replies) - 1
		}
		rep = s.replies[i]
		s.next++
	} else {
		rep = Reply{Content: "(fakeopenai: no scripted reply)"}
	}
	s.mu.Unlock()

	switch {
	case rep.Hang:
		<-hr.Context().Done()
		return
	case rep.Status != 0 && rep.Status != http.StatusOK:
		writeError(w, rep.Status, fmt.Sprintf("fakeopenai: scripted status %d", rep.Status))
		return
	case rep.Raw != "":
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, rep.Raw)
		return
	}
	in, out := rep.PromptTokens, rep.CompletionTokens
	if in == 0 && out == 0 {
		in, out = 10, 5
	}
	msg := map[string]any{"role": "assistant", "content": rep.Content, "refusal": nil}
	if rep.Refusal != "" {
		msg["content"], msg["refusal"] = nil, rep.Refusal
	}
	model := req.Model
	if model == "" {
		model = "fake"
	}
	fakehttp.WriteJSON(w, http.StatusOK, map[string]any{
		"id": fmt.Sprintf("chatcmpl-fake%d", len(s.Requests())), "object": "chat.completion", "created": 1, "model": model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": "stop", "logprobs": nil}},
		"usage":   map[string]any{"prompt_tokens": in, "completion_tokens": out, "total_tokens": in + out},
	})
}

func parse(in fakehttp.Received) *Request {
	r := &Request{Received: in}
	body := in.Body
	var w struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		ResponseFormat json.RawMessage `json:"response_format"`
	}
	if json.Unmarshal(body, &w) != nil {
		return r
	}
	r.Model, r.ResponseFormat = w.Model, w.ResponseFormat
	for _, m := range w.Messages {
		r.Messages = append(r.Messages, Message{Role: m.Role, Content: flatten(m.Content)})
	}
	return r
}

// flatten reads content that is a string or a list of text parts.
func flatten(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return ""
	}
	var out []string
	for _, p := range parts {
		out = append(out, p.Text)
	}
	return strings.Join(out, "\n")
}

func writeError(w http.ResponseWriter, code int, msg string) {
	fakehttp.WriteJSON(w, code, map[string]any{"error": map[string]any{"message": msg, "type": "server_error", "code": nil}})
}

// StartFunc listens like Start, but answers each request with what choose
// returns for it (content-aware scripts: deny when the request mentions X).
// choose may be called from several goroutines at once.
func StartFunc(choose func(*Request) Reply) (*Server, error) {
	s, err := Start()
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.choose = choose
	s.mu.Unlock()
	return s, nil
}

package fakegemini

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/sentinelhq/sentinel/internal/fakehttp"
)

// Server is a fake Gemini API (generativelanguage v1beta) on 127.0.0.1.
// Its URL is the server's root (gemini-cli's GOOGLE_GEMINI_BASE_URL);
// IsMain (default IsMainLoop) decides which model requests are turns of
// the agent's loop.
type Server struct {
	fakehttp.Scripted[*Request, Turn]

	// Side answers side requests; the default is DefaultSide.
	Side func(*Request) Turn

	mu    sync.Mutex
	hangs chan struct{}
}

// SideReply is the text DefaultSide answers to side requests without a
// response schema (e.g. a chat-compression summary).
const SideReply = "Scripted side reply"

// IsMainLoop is the default main-loop rule: a streamed request that offers
// functions and asks for no JSON schema. gemini-cli's main loop always
// streams with its tool list; its routing, next-speaker and loop-detection
// checks call generateContent with a response schema and no tools.
func IsMainLoop(r *Request) bool {
	return r.Action == "streamGenerateContent" && len(r.Tools) > 0 && len(r.Schema) == 0
}

// DefaultSide answers a side request: a JSON text satisfying its response
// schema (see SchemaAnswer) when it has one, else SideReply.
func DefaultSide(r *Request) Turn {
	if len(r.Schema) > 0 {
		b, _ := json.Marshal(SchemaAnswer(r.Schema))
		return Reply(Text(string(b)))
	}
	return Reply(Text(SideReply))
}

// Start listens on a free loopback port and serves script.
func Start(script Script) (*Server, error) {
	s := &Server{Side: DefaultSide, hangs: make(chan struct{})}
	play := fakehttp.Play[*Request, Turn]{Turns: script, When: func(t Turn) func(*Request) bool { return t.When },
		IsMain: IsMainLoop, Exhausted: Reply(Text(Exhausted))}
	if err := s.Start("fakegemini", play, s.serve); err != nil {
		return nil, err
	}
	return s, nil
}

// Close stops the server and releases hanging turns.
func (s *Server) Close() error {
	s.mu.Lock()
	select {
	case <-s.hangs:
	default:
		close(s.hangs)
	}
	s.mu.Unlock()
	return s.Scripted.Close()
}

func (s *Server) serve(w http.ResponseWriter, hr *http.Request) {
	req := parseRequest(fakehttp.Receive(hr))
	model := hr.Method == http.MethodPost && strings.Contains(hr.URL.Path, "/models/")
	switch {
	case model && (req.Action == "streamGenerateContent" || req.Action == "generateContent"):
		s.generate(w, hr, req)
	case hr.Method == http.MethodGet && strings.TrimSuffix(hr.URL.Path, "/") == "/v1beta/models":
		// The models list, as the run's preflight asks it (without a key
		// the real API answers 403; any answer but 404 is the API).
		s.Record(fakehttp.Other, req)
		fakehttp.WriteJSON(w, http.StatusOK, map[string]any{"models": []any{}})
	case model && req.Action == "countTokens":
		s.Record(fakehttp.Side, req)
		fakehttp.WriteJSON(w, http.StatusOK, map[string]any{"totalTokens": len(req.Body)/4 + 1})
	default:
		s.Record(fakehttp.Other, req)
		writeError(w, http.StatusNotFound, "fakegemini: no such endpoint "+hr.Method+" "+hr.URL.Path)
	}
}

func (s *Server) generate(w http.ResponseWriter, hr *http.Request, req *Request) {
	side := s.Side
	if side == nil {
		side = DefaultSide
	}
	turn, main := s.Turn(req)
	if !main {
		turn = side(req)
		s.Record(fakehttp.Side, req)
	}
	switch {
	case turn.Hang:
		select {
		case <-hr.Context().Done():
		case <-s.hangs:
		}
		return
	case turn.Status != 0 && turn.Status != http.StatusOK:
		writeError(w, turn.Status, fmt.Sprintf("fakegemini: scripted failure %d", turn.Status))
		return
	}
	chunks, err := turnChunks(req.Model, turn)
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	if req.Action == "streamGenerateContent" {
		writeStream(w, chunks)
		return
	}
	fakehttp.WriteJSON(w, http.StatusOK, merged(chunks))
}

// writeError answers in the Google API error shape.
func writeError(w http.ResponseWriter, code int, msg string) {
	status := map[int]string{400: "INVALID_ARGUMENT", 404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED",
		500: "INTERNAL", 503: "UNAVAILABLE"}[code]
	if status == "" {
		status = "UNKNOWN"
	}
	fakehttp.WriteJSON(w, code, map[string]any{"error": map[string]any{"code": code, "message": msg, "status": status}})
}

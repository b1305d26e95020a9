package fakemodel

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/sentinelhq/sentinel/internal/fakehttp"
)

// Server is a fake Anthropic Messages API on 127.0.0.1. Its URL is the
// base URL to put in ANTHROPIC_BASE_URL; IsMain (default HasTools)
// decides which /v1/messages requests are turns of the agent's loop.
type Server struct {
	fakehttp.Scripted[*Request, Turn]
}

// HasTools is the default main-loop rule: the agent loop always offers its
// tools; title generation and other side calls offer none.
func HasTools(r *Request) bool { return len(r.Tools) > 0 }

// Start listens on a free loopback port and serves script.
func Start(script Script) (*Server, error) {
	s := &Server{}
	play := fakehttp.Play[*Request, Turn]{SideReply: "Scripted task", Turns: script, When: func(t Turn) func(*Request) bool { return t.When },
		IsMain: HasTools, Exhausted: Reply(Text(Exhausted))}
	if err := s.Start("fakemodel", play, s.serve); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Server) serve(w http.ResponseWriter, hr *http.Request) {
	req := parseRequest(fakehttp.Receive(hr))
	path := strings.TrimSuffix(hr.URL.Path, "/")
	switch {
	case hr.Method == http.MethodPost && path == "/v1/messages":
		s.messages(w, hr, req)
	case hr.Method == http.MethodPost && path == "/v1/messages/count_tokens":
		s.Record(fakehttp.Other, req)
		writeJSON(w, http.StatusOK, map[string]any{"input_tokens": len(req.Body) / 4})
	case path == "/api/hello":
		// Claude Code's connectivity check (HEAD) in interactive mode when
		// non-essential traffic is not disabled.
		s.Record(fakehttp.Other, req)
		w.WriteHeader(http.StatusOK)
	case hr.Method == http.MethodGet && path == "/v1/models":
		s.Record(fakehttp.Other, req)
		writeJSON(w, http.StatusOK, map[string]any{"data": []any{}, "has_more": false, "first_id": nil, "last_id": nil})
	default:
		s.Record(fakehttp.Other, req)
		writeJSON(w, http.StatusNotFound, map[string]any{"type": "error",
			"error": map[string]any{"type": "not_found_error", "message": "fakemodel: no such endpoint " + hr.Method + " " + hr.URL.Path}})
	}
}

func (s *Server) messages(w http.ResponseWriter, hr *http.Request, req *Request) {
	turn, main := s.Turn(req)
	if !main {
		turn = Reply(Text(s.SideText()))
		s.Record(fakehttp.Side, req)
	}
	switch {
	case turn.Hang:
		<-hr.Context().Done()
		return
	case turn.Status != 0 && turn.Status != http.StatusOK:
		writeJSON(w, turn.Status, map[string]any{"type": "error",
			"error": map[string]any{"type": "api_error", "message": fmt.Sprintf("fakemodel: scripted status %d", turn.Status)}})
		return
	}
	msg, err := s.message(req.Model, turn)
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, map[string]any{"type": "error",
			"error": map[string]any{"type": "api_error", "message": err.Error()}})
		return
	}
	if !req.Stream {
		writeJSON(w, http.StatusOK, msg)
		return
	}
	writeStream(w, msg)
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("request-id", "req_fake")
	fakehttp.WriteJSON(w, code, v)
}

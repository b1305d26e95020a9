package fakeresponses

import (
	"net/http"
	"strings"

	"github.com/sentinelhq/sentinel/internal/fakehttp"
)

// Server is a fake OpenAI Responses API on 127.0.0.1. Its URL is the
// server's root (Codex's base_url is URL + "/v1"); IsMain (default
// HasTools) decides which /v1/responses requests are turns of the agent's
// loop.
type Server struct {
	fakehttp.Scripted[*Request, Turn]
}

// HasTools is the default main-loop rule: the agent loop always offers tools.
func HasTools(r *Request) bool { return len(r.Tools) > 0 }

// Start listens on a free loopback port and serves script.
func Start(script Script) (*Server, error) {
	s := &Server{}
	play := fakehttp.Play[*Request, Turn]{SideReply: "Scripted reply", Turns: script, When: func(t Turn) func(*Request) bool { return t.When },
		IsMain: HasTools, Exhausted: Reply(Text(Exhausted))}
	if err := s.Start("fakeresponses", play, s.serve); err != nil {
		return nil, err
	}
	return s, nil
}

// BaseURL is what Codex's model provider needs as base_url.
func (s *Server) BaseURL() string { return s.URL + "/v1" }

func (s *Server) serve(w http.ResponseWriter, hr *http.Request) {
	req := parseRequest(fakehttp.Receive(hr))
	path := strings.TrimSuffix(hr.URL.Path, "/")
	switch {
	case hr.Method == http.MethodPost && path == "/v1/responses":
		s.responses(w, req)
	case hr.Method == http.MethodGet && path == "/v1/models":
		s.Record(fakehttp.Other, req)
		fakehttp.WriteJSON(w, http.StatusOK, map[string]any{"object": "list", "data": []any{}, "models": []any{}})
	default:
		s.Record(fakehttp.Other, req)
		fakehttp.WriteJSON(w, http.StatusNotFound, map[string]any{"error": map[string]any{"type": "invalid_request_error",
			"message": "fakeresponses: no such endpoint " + hr.Method + " " + hr.URL.Path}})
	}
}

func (s *Server) responses(w http.ResponseWriter, req *Request) {
	turn, main := s.Turn(req)
	if main && turn.Make != nil {
		turn.Items = turn.Make(req)
	}
	if !main {
		turn = Reply(Text(s.SideText()))
		s.Record(fakehttp.Side, req)
	}
	id := s.NextID()
	if turn.Status != 0 && turn.Status != http.StatusOK {
		fakehttp.WriteJSON(w, turn.Status, map[string]any{"error": map[string]any{"type": "invalid_request_error", "message": turn.Message}})
		return
	}
	events, err := turnEvents(id, req.Model, turn)
	if err != nil {
		fakehttp.WriteJSON(w, http.StatusInternalServerError, map[string]any{"error": map[string]any{"type": "server_error", "message": err.Error()}})
		return
	}
	if !req.Stream {
		fakehttp.WriteJSON(w, http.StatusOK, events[len(events)-1].data["response"])
		return
	}
	writeStream(w, events)
}

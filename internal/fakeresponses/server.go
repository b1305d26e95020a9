package fakeresponses

import (
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/sentinelhq/sentinel/internal/fakehttp"
)

// Server is a fake OpenAI Responses API on 127.0.0.1.
type Server struct {
	// The requests received: Requests, SideRequests, OtherRequests, Changed.
	fakehttp.Log[*Request]

	// URL is the server's root (http://127.0.0.1:PORT); Codex's base_url is
	// URL + "/v1".
	URL string
	// IsMain decides whether a /v1/responses request is a turn of the
	// agent's loop (consumes a scripted turn) or a side request (answered
	// with SideReply). The default is HasTools. Set it before the client starts.
	IsMain func(*Request) bool
	// SideReply is the text answered to side requests.
	SideReply string

	srv *http.Server

	mu     sync.Mutex
	turns  *fakehttp.Player[*Request, Turn]
	nextID int
}

// HasTools is the default main-loop rule: the agent loop always offers tools.
func HasTools(r *Request) bool { return len(r.Tools) > 0 }

// Start listens on a free loopback port and serves script.
func Start(script Script) (*Server, error) {
	s := &Server{IsMain: HasTools, SideReply: "Scripted reply",
		turns: fakehttp.NewPlayer([]Turn(script), func(t Turn) func(*Request) bool { return t.When })}
	var err error
	if s.srv, s.URL, err = fakehttp.Serve("fakeresponses", s.serve); err != nil {
		return nil, err
	}
	return s, nil
}

// BaseURL is what Codex's model provider needs as base_url.
func (s *Server) BaseURL() string { return s.URL + "/v1" }

// Close stops the server.
func (s *Server) Close() error { return s.srv.Close() }

// Used is how many scripted turns have been played.
func (s *Server) Used() int { return s.turns.Used() }

func (s *Server) serve(w http.ResponseWriter, hr *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(hr.Body, 64<<20))
	req := parseRequest(hr, body)
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
	isMain := s.IsMain
	if isMain == nil {
		isMain = HasTools
	}
	var turn Turn
	if isMain(req) {
		turn = s.take(req)
		if turn.Make != nil {
			turn.Items = turn.Make(req)
		}
		s.Record(fakehttp.Main, req)
	} else {
		turn = Reply(Text(s.SideReply))
		s.Record(fakehttp.Side, req)
	}
	s.mu.Lock()
	s.nextID++
	id := s.nextID
	s.mu.Unlock()
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

// take picks the first unused turn that matches req.
func (s *Server) take(req *Request) Turn {
	if t, ok := s.turns.Take(req); ok {
		return t
	}
	return Reply(Text(Exhausted))
}

package fakehttp

import (
	"io"
	"net/http"
	"sync"
)

// Received is what every fake keeps of a request as it arrived, before
// its own parse of the body: each fake's Request embeds it.
type Received struct {
	Method, Path string
	Header       http.Header
	Body         []byte // the raw body
}

// Receive reads hr's body (up to 64 MiB) into a Received.
func Receive(hr *http.Request) Received {
	body, _ := io.ReadAll(io.LimitReader(hr.Body, 64<<20))
	return Received{Method: hr.Method, Path: hr.URL.Path, Header: hr.Header.Clone(), Body: body}
}

// Scripted is the part of a fake model API that plays a script: the log of
// what it received, its URL, which requests are turns of the agent's loop,
// the player of the scripted turns, and the listener. A fake embeds it and
// adds only its API's own shape: its routes, its answers, its stream.
type Scripted[R, T any] struct {
	// The requests received: Requests, SideRequests, OtherRequests, Changed.
	Log[R]

	// URL is the server's root (http://127.0.0.1:PORT).
	URL string
	// IsMain decides whether a model request is a turn of the agent's loop
	// (consumes a scripted turn) or a side request; nil is the fake's
	// default rule. Set it before the client starts.
	IsMain func(R) bool
	// SideReply is the text a fake answers side requests with (a fake
	// with an answer of its own for them ignores it). Set it before the
	// client starts, or through SetSideReply once it may be serving.
	SideReply string

	mu        sync.Mutex
	nextID    int
	isMain    func(R) bool
	exhausted T
	turns     *Player[R, T]
	srv       *http.Server
}

// Play is what Start needs to play a script: the turns, a turn's
// condition (nil: any request), the default main-loop rule, and the turn
// played once the script has run out.
type Play[R, T any] struct {
	SideReply string
	Turns     []T
	When      func(T) func(R) bool
	IsMain    func(R) bool
	Exhausted T
}

// Start serves h on a free loopback port and plays p. name (the fake's
// package) starts the error when no port can be had.
func (s *Scripted[R, T]) Start(name string, p Play[R, T], h http.HandlerFunc) error {
	s.IsMain, s.isMain, s.exhausted, s.SideReply = p.IsMain, p.IsMain, p.Exhausted, p.SideReply
	s.turns = NewPlayer(p.Turns, p.When)
	var err error
	s.srv, s.URL, err = Serve(name, h)
	return err
}

// SetSideReply changes the side requests' answer while the server may be
// serving.
func (s *Scripted[R, T]) SetSideReply(text string) {
	s.mu.Lock()
	s.SideReply = text
	s.mu.Unlock()
}

// SideText is the side requests' answer now.
func (s *Scripted[R, T]) SideText() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.SideReply
}

// NextID numbers the answers (message and response ids): 1, 2, …
func (s *Scripted[R, T]) NextID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	return s.nextID
}

// Close stops the server.
func (s *Scripted[R, T]) Close() error { return s.srv.Close() }

// Used is how many scripted turns have been played.
func (s *Scripted[R, T]) Used() int { return s.turns.Used() }

// Turn says whether req is a turn of the agent's loop and, when it is,
// takes the first unused turn that matches it (the exhausted turn when
// none does) and records req as Main. A side request is not recorded: the
// fake answers it and records it as Side.
func (s *Scripted[R, T]) Turn(req R) (T, bool) {
	isMain := s.IsMain
	if isMain == nil {
		isMain = s.isMain
	}
	if !isMain(req) {
		var zero T
		return zero, false
	}
	t, ok := s.turns.Take(req)
	if !ok {
		t = s.exhausted
	}
	s.Record(Main, req)
	return t, true
}

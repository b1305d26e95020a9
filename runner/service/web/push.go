package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"time"

	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// Push is where a card's notification goes ([notify] push and push_topic):
// an ntfy-compatible server (Topic set: ntfy's JSON publishing, with http
// actions) or a generic webhook (no Topic: the nudge and the action URLs
// as JSON).
type Push struct {
	URL   string
	Topic string
}

// pushAction is one of ntfy's action buttons.
type pushAction struct {
	Action string `json:"action"` // http | view
	Label  string `json:"label"`
	URL    string `json:"url"`
	Method string `json:"method,omitempty"`
	Clear  bool   `json:"clear,omitempty"`
}

// ntfyMessage is ntfy's JSON publish body.
type ntfyMessage struct {
	Topic   string       `json:"topic"`
	Title   string       `json:"title"`
	Message string       `json:"message"`
	Click   string       `json:"click,omitempty"`
	Actions []pushAction `json:"actions"`
}

// Hook is the generic webhook's body: the nudge `[notify] command` reads,
// and where to answer. ApproveURL is empty for a person-only request and
// for a write or edit (approved where its content is shown): it opens the
// page instead.
type Hook struct {
	queue.Nudge
	PageURL    string    `json:"page_url"`
	ApproveURL string    `json:"approve_url,omitempty"`
	DenyURL    string    `json:"deny_url"`
	Expires    time.Time `json:"expires"`
}

// Notify pushes e, if a push is configured; a failure is logged, never
// fatal. Call it in its own goroutine (the queue's nudge does).
func (s *Server) Notify(e queue.Entry) {
	if s.opts.Push.URL == "" {
		return
	}
	if err := s.push(e); err != nil {
		s.logf("[notify] push for request %s failed: %v", e.ID, err)
	}
}

func (s *Server) push(e queue.Entry) error {
	base := s.baseURL()
	if base == "" {
		return fmt.Errorf("the page's address is not known yet")
	}
	exp := s.now().Add(PushTTL)
	nonce := newNonce()
	url := func(decision string) (string, error) {
		t, err := signPush(pushClaim{ID: e.ID, Decision: decision, Bind: bindOf(e), Exp: exp.Unix(), Nonce: nonce})
		return base + "/push/" + t, err
	}
	deny, err := url(queue.Deny)
	if err != nil {
		return err
	}
	approve := ""
	if !personOnly(e) && queue.SeenOf(e.Request) == "" { // a write is approved where its content is shown
		if approve, err = url(queue.Approve); err != nil {
			return err
		}
	}
	page := base + "/#c-" + e.ID
	nd := queue.NudgeOf(e)
	var body any = Hook{Nudge: nd, PageURL: page, ApproveURL: approve, DenyURL: deny, Expires: exp.UTC()}
	target := s.opts.Push.URL
	if s.opts.Push.Topic != "" {
		m := ntfyMessage{Topic: s.opts.Push.Topic, Title: "Sentinel: " + textsafe.Line(nd.Kind+" in "+filepath.Base(nd.Project)),
			Message: clip(nd.Summary, 300), Click: page}
		if approve != "" {
			m.Actions = append(m.Actions, pushAction{Action: "http", Label: "Approve", URL: approve, Method: http.MethodPost, Clear: true})
		} else {
			m.Message += " (approve this at the page, where all of it is shown)"
		}
		m.Actions = append(m.Actions, pushAction{Action: "http", Label: "Deny", URL: deny, Method: http.MethodPost, Clear: true},
			pushAction{Action: "view", Label: "Open", URL: page})
		body = m
	}
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := s.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s answered %s", target, resp.Status)
	}
	return nil
}

package web

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// The web journal's kinds (lane approval).
const (
	KindAnswer      journal.Kind = "web-answer"       // Answered
	KindPushRefused journal.Kind = "web-push-refused" // Answered (Error set)
	KindPaired      journal.Kind = "web-paired"       // Answered (Device only)
)

// Answered is the journal line of an answer from the page or a push.
type Answered struct {
	ID       string          `json:"id,omitempty"`
	Run      string          `json:"run,omitempty"`
	Project  string          `json:"project,omitempty"`
	Device   string          `json:"device"`
	Via      string          `json:"via,omitempty"` // page | push
	Decision string          `json:"decision,omitempty"`
	Remember approvals.Scope `json:"remember,omitempty"`
	Message  string          `json:"message,omitempty"`
	Note     string          `json:"note,omitempty"`
	Error    string          `json:"error,omitempty"`
}

func (s *Server) note(kind journal.Kind, text string, a Answered) {
	if s.opts.Journal != nil {
		_, _ = s.opts.Journal.Append(journal.Approval, kind, text, a)
	}
}

func (s *Server) journalPair(name string) {
	s.note(KindPaired, "paired the device "+name, Answered{Device: name})
}

// answer is a card's form: approve once, approve and remember (an offered
// breadth, a scope, an expiry), or deny with a message. It answers through
// the queue (the first answer wins; the posting run checks a remembered
// breadth against its own card's), and journals who answered.
func (s *Server) answer(w http.ResponseWriter, r *http.Request) {
	d := deviceOf(r)
	r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
	if err := r.ParseForm(); err != nil || !checkPageToken(d, r.PostFormValue("token")) {
		s.limits.failed(r)
		s.message(w, http.StatusForbidden, "refused: this form is not from this device's page (reload the page)")
		return
	}
	e, ok := s.entry(r.PostFormValue("id"))
	if !ok {
		http.Redirect(w, r, "/?r=gone", http.StatusSeeOther)
		return
	}
	a, flash, err := answerOf(e, r)
	if err != nil {
		http.Redirect(w, r, "/?r=bad", http.StatusSeeOther)
		return
	}
	a.Via = "page"
	if err := s.send(e, a, d.Name); err != nil {
		http.Redirect(w, r, "/?r=gone", http.StatusSeeOther)
		return
	}
	http.Redirect(w, r, "/?r="+flash, http.StatusSeeOther)
}

// answerOf reads a card's form into the queue's answer.
func answerOf(e queue.Entry, r *http.Request) (queue.Answer, string, error) {
	a := queue.Answer{ID: e.ID, Seen: r.PostFormValue("seen")} // the queue checks it against the content
	switch r.PostFormValue("decision") {
	case "approve":
		a.Decision = queue.Approve
		return a, "approved", nil
	case "deny":
		a.Decision, a.Message = queue.Deny, r.PostFormValue("message")
		return a, "denied", nil
	case "remember":
	default:
		return a, "", fmt.Errorf("no decision")
	}
	c := cardOf(e, time.Now())
	opt, err1 := strconv.Atoi(r.PostFormValue("option"))
	exp, err2 := strconv.Atoi(r.PostFormValue("expires"))
	scope := approvals.Scope(r.PostFormValue("scope"))
	okScope := false
	for _, sc := range c.Scopes {
		okScope = okScope || sc == scope
	}
	if err1 != nil || err2 != nil || opt < 0 || opt >= len(c.Options) || exp < 0 || exp >= len(expiries) || !okScope {
		return a, "", fmt.Errorf("no such breadth, scope or expiry")
	}
	o := c.Options[opt]
	m := o.match
	a.Decision, a.Remember, a.Match, a.Also, a.ExpiresSec = queue.Approve, scope, &m, o.also, int64(expiries[exp].D/time.Second)
	return a, "remembered", nil
}

// send answers e through the queue and journals it with the device's name.
func (s *Server) send(e queue.Entry, a queue.Answer, device string) error {
	got, err := s.opts.Queue.AnswerNoted(a)
	j := Answered{ID: e.ID, Run: e.Run, Project: e.Project, Device: device, Via: a.Via, Decision: a.Decision,
		Remember: a.Remember, Message: a.Message, Note: got.Note}
	if err != nil {
		j.Error = err.Error()
		s.note(KindAnswer, fmt.Sprintf("%s from %s (%s) refused: %v", a.Decision, device, a.Via, err), j)
		return err
	}
	s.note(KindAnswer, fmt.Sprintf("%s request %s of run %s, from %s (%s)", a.Decision, e.ID, e.Run, device, a.Via), j)
	return nil
}

// pushAnswer is a push's Approve or Deny: its token, once, for the one
// request it was made for, before it expires. Any doubt is a refusal that
// changes nothing (the request keeps waiting for the page or a terminal).
func (s *Server) pushAnswer(w http.ResponseWriter, r *http.Request) {
	if !s.limits.mayTry(r) {
		tooMany(w)
		return
	}
	c, err := s.used.spend(r.PathValue("token"), s.now())
	var e queue.Entry
	if err == nil {
		var ok bool
		if e, ok = s.entry(c.ID); !ok || bindOf(e) != c.Bind {
			err = errPush
		}
	}
	if err == nil && c.Decision == queue.Approve && personOnly(e) {
		err = errPush // a person-only request is approved at the page, never by one tap
	}
	if err == nil && c.Decision != queue.Approve && c.Decision != queue.Deny {
		err = errPush
	}
	if err == nil {
		a := queue.Answer{ID: e.ID, Decision: c.Decision, Via: "push"}
		if c.Decision == queue.Deny {
			a.Message = "denied from a push notification"
		}
		err = s.send(e, a, "push")
	}
	if err != nil {
		s.limits.failed(r)
		s.note(KindPushRefused, "a push action was refused", Answered{ID: c.ID, Device: "push", Via: "push", Decision: c.Decision, Error: err.Error()})
		http.Error(w, errPush.Error(), http.StatusForbidden)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = fmt.Fprintln(w, map[string]string{queue.Approve: "Approved.", queue.Deny: "Denied."}[c.Decision])
}

package web

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"strings"

	"github.com/sentinelhq/sentinel/approvals/queue"
)

// indexData is what the page draws.
type indexData struct {
	Device string
	Token  string // the per-page token every form carries
	Nonce  string // the script's CSP nonce
	Cards  []card
	Runs   []runView
	Flash  string
	Expiry []string
}

// flashes are the only texts a redirect may ask the page to show: a
// query names one, never says it.
var flashes = map[string]string{
	"approved":   "Approved once.",
	"remembered": "Approved and remembered.",
	"denied":     "Denied.",
	"gone":       "That request is no longer waiting: it was answered elsewhere or withdrawn.",
	"bad":        "That answer was not understood; nothing was sent.",
}

func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	d := deviceOf(r)
	data := indexData{Device: d.Name, Token: pageToken(d), Nonce: newScriptNonce(), Flash: flashes[r.URL.Query().Get("r")]}
	now := s.now()
	ps := newProjects()
	for _, e := range s.opts.Queue.List() {
		c := cardOf(e, now)
		if r.URL.Query().Get("all") == e.ID {
			c.showContent(e, true)
		}
		previewsOf(&c, e, ps)
		data.Cards = append(data.Cards, c)
	}
	data.Runs = s.runViews()
	for _, e := range expiries {
		data.Expiry = append(data.Expiry, e.Label)
	}
	w.Header().Set("Content-Security-Policy", "default-src 'none'; script-src 'nonce-"+data.Nonce+"'; style-src 'self'; connect-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	s.render(w, "index.html", data)
}

func newScriptNonce() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func (s *Server) render(w http.ResponseWriter, name string, data any) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := s.tmpl.ExecuteTemplate(w, name, data); err != nil {
		s.logf("page %s: %v", name, err)
	}
}

// message is a page that says one thing.
func (s *Server) message(w http.ResponseWriter, status int, text string) {
	w.WriteHeader(status)
	s.render(w, "message.html", text)
}

// pairPage asks the new device's name; the code stays in the form and is
// spent only when the form is sent (a link preview cannot spend it).
func (s *Server) pairPage(w http.ResponseWriter, r *http.Request) {
	s.render(w, "pair.html", struct{ Code string }{strings.ToUpper(strings.TrimSpace(r.URL.Query().Get("code")))})
}

// pair spends a pairing code and gives this device its token.
func (s *Server) pair(w http.ResponseWriter, r *http.Request) {
	if !s.limits.mayTry(r) {
		tooMany(w)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 4096)
	if err := r.ParseForm(); err != nil {
		s.message(w, http.StatusBadRequest, "That form was not understood.")
		return
	}
	token, err := s.opts.Devices.Pair(r.PostFormValue("code"), strings.TrimSpace(r.PostFormValue("name")))
	if err != nil {
		s.limits.failed(r)
		s.message(w, http.StatusForbidden, err.Error())
		return
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: token, Path: "/", MaxAge: 400 * 24 * 3600,
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
	s.journalPair(r.PostFormValue("name"))
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// entry is the waiting request id names, if it waits.
func (s *Server) entry(id string) (queue.Entry, bool) {
	for _, e := range s.opts.Queue.List() {
		if e.ID == id {
			return e, true
		}
	}
	return queue.Entry{}, false
}

package mcpauth

import (
	"crypto/rand"
	"crypto/subtle"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// pending is an authorization request waiting for the person.
type pending struct {
	id                                   string
	client                               Client
	redirectURI, state, challenge, resrc string
	preselect                            []string // tools
	code                                 string   // the one-time consent code, normalised
	tries                                int
	expires                              time.Time
}

// consentAlphabet has no 0/O or 1/I/L to misread from a terminal.
const consentAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

// newConsentCode is 10 characters (about 49 bits), shown as XXXXX-XXXXX.
func newConsentCode() string {
	var b [10]byte
	rand.Read(b[:])
	out := make([]byte, len(b))
	for i, c := range b {
		out[i] = consentAlphabet[int(c)%len(consentAlphabet)]
	}
	return string(out)
}

// normCode is what the person typed, as codes are compared.
func normCode(s string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(s) {
		if r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ShowCode is a code as the terminal shows it.
func ShowCode(c string) string {
	if len(c) == 10 {
		return c[:5] + "-" + c[5:]
	}
	return c
}

// errorPage answers an authorization request that cannot go back to the
// client (unknown client, unregistered redirect): never a redirect.
func errorPage(w http.ResponseWriter, status int, msg string) {
	pageHeaders(w)
	w.WriteHeader(status)
	consentPage().ExecuteTemplate(w, "error", msg)
}

func pageHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
}

// redirectWith sends the browser back to the client with params (and iss,
// RFC 9207).
func (s *Server) redirectWith(w http.ResponseWriter, r *http.Request, redirectURI string, params url.Values) {
	u, err := url.Parse(redirectURI)
	if err != nil {
		errorPage(w, http.StatusBadRequest, "the client's redirect_uri is not a URL")
		return
	}
	q := u.Query()
	for k, v := range params {
		q[k] = v
	}
	q.Set("iss", s.cfg.Issuer)
	u.RawQuery = q.Encode()
	http.Redirect(w, r, u.String(), http.StatusSeeOther)
}

// authorize checks an authorization request and shows the consent page;
// the person gets the code in their terminal.
func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	var c *Client
	s.store.view(func(st *state) error {
		if got := st.Clients[q.Get("client_id")]; got != nil {
			cc := *got
			c = &cc
		}
		return nil
	})
	if c == nil {
		errorPage(w, http.StatusBadRequest, "This client is not registered here (or was revoked). Connect again from the client so that it registers.")
		return
	}
	redirect := q.Get("redirect_uri")
	if redirect == "" && len(c.RedirectURIs) == 1 {
		redirect = c.RedirectURIs[0]
	}
	if !slices.Contains(c.RedirectURIs, redirect) {
		errorPage(w, http.StatusBadRequest, "The redirect_uri of this request is not one the client registered, so this server will not send an answer there.")
		return
	}
	fail := func(code, desc string) {
		s.redirectWith(w, r, redirect, url.Values{"error": {code}, "error_description": {desc}, "state": {q.Get("state")}})
	}
	challenge := q.Get("code_challenge")
	switch {
	case q.Get("response_type") != "code":
		fail("unsupported_response_type", "only response_type=code")
		return
	case challenge == "" || q.Get("code_challenge_method") != "S256":
		fail("invalid_request", "PKCE is required, with code_challenge_method=S256")
		return
	case len(challenge) != 43 || strings.Trim(challenge, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") != "":
		fail("invalid_request", "code_challenge is not an S256 challenge")
		return
	case q.Get("resource") != "" && !s.sameResource(q.Get("resource")):
		fail("invalid_target", "this server issues tokens only for "+s.cfg.Resource)
		return
	}
	var pre []string
	tools := s.tools()
	for _, sc := range strings.Fields(q.Get("scope")) {
		if t, ok := strings.CutPrefix(sc, ScopePrefix); ok && slices.Contains(tools, t) {
			pre = append(pre, t)
		}
	}
	if len(pre) == 0 {
		pre = slices.Clone(tools)
	}
	now := s.cfg.Now()
	p := &pending{id: randomToken(""), client: *c, redirectURI: redirect, state: q.Get("state"), challenge: challenge,
		resrc: q.Get("resource"), preselect: pre, code: newConsentCode(), expires: now.Add(consentTTL)}
	s.mu.Lock()
	for id, old := range s.pending {
		if !now.Before(old.expires) {
			delete(s.pending, id)
		}
	}
	full := len(s.pending) >= maxPending
	if !full {
		s.pending[p.id] = p
	}
	s.mu.Unlock()
	if full {
		errorPage(w, http.StatusServiceUnavailable, "Too many consent requests are waiting. Wait ten minutes, or restart sentinel mcp.")
		return
	}
	s.cfg.Notify(Notice{Client: textsafe.Line(c.Name), ClientID: c.ID, RedirectURI: textsafe.Line(redirect), Code: ShowCode(p.code), Expires: p.expires})
	s.showConsent(w, http.StatusOK, p, pre, "")
}

// consentView is what the page shows.
type consentView struct {
	Server, Client, ClientID, Redirect, RedirectHost, Request, Error string
	Registered                                                       string
	Tools                                                            []toolBox
	Paths                                                            []string
	TriesLeft                                                        int
}

type toolBox struct {
	Name    string
	Checked bool
}

func (s *Server) showConsent(w http.ResponseWriter, status int, p *pending, checked []string, problem string) {
	v := consentView{Server: s.cfg.Name, Client: textsafe.Line(p.client.Name), ClientID: p.client.ID, Redirect: textsafe.Line(p.redirectURI),
		Request: p.id, Error: problem, Registered: p.client.Created.UTC().Format("2006-01-02 15:04 UTC"), Paths: s.paths(), TriesLeft: consentTries - p.tries}
	if u, err := url.Parse(p.redirectURI); err == nil {
		v.RedirectHost = textsafe.Line(u.Scheme + "://" + u.Host)
	}
	for _, t := range s.tools() {
		v.Tools = append(v.Tools, toolBox{Name: t, Checked: slices.Contains(checked, t)})
	}
	pageHeaders(w)
	w.WriteHeader(status)
	consentPage().ExecuteTemplate(w, "consent", v)
}

// consent is the person's answer from the page.
func (s *Server) consent(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	if err := r.ParseForm(); err != nil {
		errorPage(w, http.StatusBadRequest, "The form could not be read.")
		return
	}
	f := r.PostForm
	now := s.cfg.Now()
	s.mu.Lock()
	p := s.pending[f.Get("request")]
	if p != nil && !now.Before(p.expires) {
		delete(s.pending, p.id)
		p = nil
	}
	if p == nil {
		s.mu.Unlock()
		errorPage(w, http.StatusBadRequest, "This consent request is gone (answered, expired or refused after wrong codes). Start again from the client.")
		return
	}
	if f.Get("decision") == "deny" {
		delete(s.pending, p.id)
		s.mu.Unlock()
		s.redirectWith(w, r, p.redirectURI, url.Values{"error": {"access_denied"}, "error_description": {"the person refused"}, "state": {p.state}})
		return
	}
	var tools []string
	grantable := s.tools()
	for _, t := range f["tool"] {
		if slices.Contains(grantable, t) && !slices.Contains(tools, t) {
			tools = append(tools, t)
		}
	}
	if subtle.ConstantTimeCompare([]byte(normCode(f.Get("code"))), []byte(p.code)) != 1 {
		p.tries++
		if p.tries >= consentTries {
			delete(s.pending, p.id)
			s.mu.Unlock()
			errorPage(w, http.StatusForbidden, "Too many wrong codes: this request is refused. Start again from the client.")
			return
		}
		s.mu.Unlock()
		s.showConsent(w, http.StatusForbidden, p, tools, "That is not the code in the terminal where sentinel mcp runs.")
		return
	}
	if len(tools) == 0 {
		s.mu.Unlock()
		s.showConsent(w, http.StatusBadRequest, p, tools, "Choose at least one tool, or deny.")
		return
	}
	delete(s.pending, p.id)
	code := randomToken("sac_")
	scopes := make([]string, len(tools))
	for i, t := range tools {
		scopes[i] = ScopePrefix + t
	}
	s.codes[hashToken(code)] = &authCode{clientID: p.client.ID, redirectURI: p.redirectURI, challenge: p.challenge, resource: p.resrc, scopes: scopes, expires: now.Add(codeTTL)}
	for h, ac := range s.codes {
		if !now.Before(ac.expires.Add(time.Hour)) { // kept an hour past use, to spot a replay
			delete(s.codes, h)
		}
	}
	s.mu.Unlock()
	s.redirectWith(w, r, p.redirectURI, url.Values{"code": {code}, "state": {p.state}})
}

var consentPage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Parse(consentHTML))
})

const consentHTML = `{{define "head"}}<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sentinel MCP: allow a client?</title>
<style>body{font:16px/1.45 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b;background:#fafafa}
h1{font-size:1.3rem}.box{background:#fff;border:1px solid #ccc;border-radius:6px;padding:1rem;margin:1rem 0}
code,.mono{font-family:ui-monospace,monospace;word-break:break-all}.err{color:#a00;font-weight:bold}
label{display:block;margin:.2rem 0}input[name=code]{font:1.3rem ui-monospace,monospace;letter-spacing:.1em;width:12em}
button{font-size:1rem;padding:.4rem 1.2rem;margin-right:1rem}@media (prefers-color-scheme:dark){body{background:#161616;color:#eee}.box{background:#222;border-color:#444}}</style></head><body>{{end}}
{{define "error"}}{{template "head"}}<h1>Sentinel MCP</h1><p class="err" id="error">{{.}}</p></body></html>{{end}}
{{define "consent"}}{{template "head"}}
<h1>Allow a client to use {{if .Server}}{{.Server}}{{else}}this Sentinel MCP server{{end}}?</h1>
{{if .Error}}<p class="err" id="error">{{.Error}}</p>{{end}}
<div class="box">
<p>A client that calls itself <strong id="client-name" class="mono">{{.Client}}</strong> (registered {{.Registered}}, id <code id="client-id">{{.ClientID}}</code>) asks for access.</p>
<p>If you allow it, your answer goes to <strong id="redirect-host" class="mono">{{.RedirectHost}}</strong><br><small class="mono" id="redirect">{{.Redirect}}</small></p>
<p>Only allow it if you started this connection yourself, from that client, just now.</p>
</div>
<form method="post" action="/oauth/consent">
<input type="hidden" name="request" value="{{.Request}}">
<div class="box"><strong>Tools it may call</strong>
{{range .Tools}}<label><input type="checkbox" name="tool" value="{{.Name}}"{{if .Checked}} checked{{end}}> {{.Name}}</label>{{end}}
</div>
<div class="box"><strong>Paths the server reaches</strong> (the server's config; each tool stays inside them)
<ul id="paths">{{range .Paths}}<li class="mono">{{.}}</li>{{end}}</ul></div>
<div class="box"><label for="code"><strong>Consent code</strong> — printed in the terminal (or the service log) where <code>sentinel mcp</code> runs. {{.TriesLeft}} tries left.</label>
<input id="code" name="code" autocomplete="off" autocapitalize="characters" spellcheck="false" placeholder="XXXXX-XXXXX"></div>
<button type="submit" name="decision" value="allow" id="allow">Allow</button>
<button type="submit" name="decision" value="deny" id="deny">Deny</button>
</form></body></html>{{end}}`

package mcpauth

import (
	"crypto/subtle"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// register is dynamic client registration (RFC 7591). Anyone who reaches
// the URL may register: a client is nothing until the person consents;
// clients that never got a grant are pruned after a day, and when the table
// is full the oldest of them make room (never a granted client, nor one on a
// consent page now).
func (s *Server) register(w http.ResponseWriter, r *http.Request) {
	cors(w, r)
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	var m oauthex.ClientRegistrationMetadata
	if err := json.NewDecoder(r.Body).Decode(&m); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_client_metadata", "the body is not client metadata JSON: "+err.Error())
		return
	}
	if len(m.RedirectURIs) == 0 || len(m.RedirectURIs) > 10 {
		oauthError(w, http.StatusBadRequest, "invalid_redirect_uri", "give between 1 and 10 redirect_uris")
		return
	}
	for _, u := range m.RedirectURIs {
		if err := redirectAllowed(u); err != nil {
			oauthError(w, http.StatusBadRequest, "invalid_redirect_uri", err.Error())
			return
		}
	}
	switch m.TokenEndpointAuthMethod {
	case "":
		m.TokenEndpointAuthMethod = "client_secret_basic" // RFC 7591's default
	case "none", "client_secret_post", "client_secret_basic":
	default:
		oauthError(w, http.StatusBadRequest, "invalid_client_metadata", "token_endpoint_auth_method: use none, client_secret_post or client_secret_basic")
		return
	}
	for _, g := range m.GrantTypes {
		if g != "authorization_code" && g != "refresh_token" {
			oauthError(w, http.StatusBadRequest, "invalid_client_metadata", "grant_types: only authorization_code and refresh_token")
			return
		}
	}
	for _, t := range m.ResponseTypes {
		if t != "code" {
			oauthError(w, http.StatusBadRequest, "invalid_client_metadata", "response_types: only code")
			return
		}
	}
	name := strings.TrimSpace(m.ClientName)
	if name == "" {
		name = "(a client that gave no name)"
	}
	if utf8.RuneCountInString(name) > 80 {
		name = string([]rune(name)[:80]) + "…"
	}
	now := s.cfg.Now()
	c := &Client{ID: "smc_" + randomToken("")[:22], Name: name, RedirectURIs: slices.Clone(m.RedirectURIs), AuthMethod: m.TokenEndpointAuthMethod, Created: now}
	var secret string
	if c.AuthMethod != "none" {
		secret = randomToken("scs_")
		c.SecretHash = hashToken(secret)
	}
	// Clients the person is being asked about now are kept whatever their
	// age: a flood of registrations must not pull one from under its
	// consent page.
	asking := map[string]bool{}
	s.mu.Lock()
	for _, p := range s.pending {
		if now.Before(p.expires) {
			asking[p.client.ID] = true
		}
	}
	s.mu.Unlock()
	err := s.store.update(func(st *state) error {
		granted := map[string]bool{}
		for _, g := range st.Grants {
			granted[g.ClientID] = true
		}
		var unused []*Client // never granted, not being asked about
		for id, old := range st.Clients {
			switch {
			case granted[id] || asking[id]:
			case now.Sub(old.Created) > 24*time.Hour:
				delete(st.Clients, id)
			default:
				unused = append(unused, old)
			}
		}
		// Full: the oldest unused registrations make room, so a flood of
		// registrations only ever pushes out its own kind, never a client
		// the person granted or is granting.
		slices.SortFunc(unused, func(a, b *Client) int { return a.Created.Compare(b.Created) })
		for len(st.Clients) >= maxClients && len(unused) > 0 {
			delete(st.Clients, unused[0].ID)
			unused = unused[1:]
		}
		if len(st.Clients) >= maxClients {
			return errTooManyClients
		}
		st.Clients[c.ID] = c
		return nil
	})
	if errors.Is(err, errTooManyClients) {
		oauthError(w, http.StatusServiceUnavailable, "temporarily_unavailable", "too many clients are registered: the person removes some with `sentinel mcp clients --revoke ID`")
		return
	}
	if err != nil {
		oauthError(w, http.StatusInternalServerError, "server_error", "the server could not keep the registration")
		return
	}
	m.ClientName = name
	m.ApplicationType = ""
	writeJSON(w, http.StatusCreated, &oauthex.ClientRegistrationResponse{ClientRegistrationMetadata: m, ClientID: c.ID, ClientSecret: secret, ClientIDIssuedAt: now})
}

var errTooManyClients = errors.New("too many clients")

// errCodeReplayed is an exchange whose code was presented again while it
// was being exchanged: no grant comes of it.
var errCodeReplayed = errors.New("code replayed")

// clientRequest reads a token or revocation request's form (bounded) and
// authenticates its client; on failure it has answered with the OAuth error.
func (s *Server) clientRequest(w http.ResponseWriter, r *http.Request) (*Client, bool) {
	cors(w, r)
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", "the body is not a form")
		return nil, false
	}
	c, ok := s.authenticateClient(r)
	if !ok {
		oauthError(w, http.StatusUnauthorized, "invalid_client", "unknown client or wrong client secret")
		return nil, false
	}
	return c, true
}

// authenticateClient is the client a token or revocation request comes
// from: its id, and its secret when it registered as confidential.
func (s *Server) authenticateClient(r *http.Request) (*Client, bool) {
	id, secret, basic := r.BasicAuth()
	if !basic {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	} else if fid := r.PostForm.Get("client_id"); fid != "" && fid != id {
		return nil, false
	}
	var c *Client
	s.store.view(func(st *state) error {
		if got := st.Clients[id]; got != nil {
			cc := *got
			c = &cc
		}
		return nil
	})
	if c == nil {
		return nil, false
	}
	if c.AuthMethod == "none" {
		return c, true
	}
	return c, secret != "" && subtle.ConstantTimeCompare([]byte(hashToken(secret)), []byte(c.SecretHash)) == 1
}

// token is the token endpoint: a code for tokens, or a refresh token for
// new ones (the old one retired).
func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	c, ok := s.clientRequest(w, r)
	if !ok {
		return
	}
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		s.exchangeCode(w, r, c)
	case "refresh_token":
		s.refresh(w, r, c)
	default:
		oauthError(w, http.StatusBadRequest, "unsupported_grant_type", "use authorization_code or refresh_token")
	}
}

// tokenResponse is what the token endpoint answers.
type tokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
	RefreshToken string `json:"refresh_token"`
	Scope        string `json:"scope"`
}

// issue puts a fresh access and refresh token on g (the old refresh token
// retired) and says them.
// issue makes a new access and refresh token for g; the access token
// carries scopes (nil: all of g's). The refresh token always keeps g's
// whole scope (RFC 6749 section 6).
func (s *Server) issue(g *Grant, now time.Time, scopes []string) tokenResponse {
	access, refresh := randomToken("sat_"), randomToken("srt_")
	if g.RefreshHash != "" {
		g.Retired = append(g.Retired, g.RefreshHash)
		if len(g.Retired) > 32 {
			g.Retired = g.Retired[len(g.Retired)-32:]
		}
	}
	g.RefreshHash = hashToken(refresh)
	g.RefreshExpires = now.Add(s.cfg.RefreshTTL)
	live := g.Access[:0]
	for _, a := range g.Access {
		if now.Before(a.Expires) {
			live = append(live, a)
		}
	}
	tok := AccessToken{Hash: hashToken(access), Expires: now.Add(s.cfg.AccessTTL), Scopes: slices.Clone(scopes)}
	g.Access = append(live, tok)
	g.LastUsed = now
	return tokenResponse{AccessToken: access, TokenType: "Bearer", ExpiresIn: int64(s.cfg.AccessTTL / time.Second), RefreshToken: refresh, Scope: strings.Join(tok.scopes(g), " ")}
}

func (s *Server) exchangeCode(w http.ResponseWriter, r *http.Request, c *Client) {
	f := r.PostForm
	h := hashToken(f.Get("code"))
	now := s.cfg.Now()
	s.mu.Lock()
	ac := s.codes[h]
	var replayed string
	switch {
	case ac == nil || !now.Before(ac.expires):
		ac = nil
	case ac.used:
		ac.replayed = true
		replayed, ac = ac.grantID, nil
	default:
		ac.used = true // one presentation, right or wrong
	}
	s.mu.Unlock()
	if replayed != "" {
		// A code used twice was intercepted: what it gave is withdrawn.
		s.store.update(func(st *state) error { delete(st.Grants, replayed); return nil })
	}
	if ac == nil {
		oauthError(w, http.StatusBadRequest, "invalid_grant", "the code is unknown, used or expired: authorize again")
		return
	}
	verifier := f.Get("code_verifier")
	switch {
	case ac.clientID != c.ID:
		oauthError(w, http.StatusBadRequest, "invalid_grant", "the code was issued to another client")
		return
	case f.Get("redirect_uri") != ac.redirectURI:
		oauthError(w, http.StatusBadRequest, "invalid_grant", "redirect_uri differs from the one the code was issued for")
		return
	case len(verifier) < 43 || len(verifier) > 128 || subtle.ConstantTimeCompare([]byte(s256(verifier)), []byte(ac.challenge)) != 1:
		oauthError(w, http.StatusBadRequest, "invalid_grant", "code_verifier does not match the code_challenge (PKCE S256)")
		return
	case f.Get("resource") != "" && !s.sameResource(f.Get("resource")):
		oauthError(w, http.StatusBadRequest, "invalid_target", "this server issues tokens only for "+s.cfg.Resource)
		return
	}
	g := &Grant{ID: "smg_" + randomToken("")[:22], ClientID: c.ID, Scopes: ac.scopes, Created: now}
	// Named before it is stored, so a replay of the code from now on
	// withdraws it whichever of the two the store takes first.
	s.mu.Lock()
	ac.grantID = g.ID
	s.mu.Unlock()
	var resp tokenResponse
	err := s.store.update(func(st *state) error {
		if st.Clients[c.ID] == nil {
			return ErrNoClient
		}
		s.mu.Lock()
		replayedMeanwhile := ac.replayed
		s.mu.Unlock()
		if replayedMeanwhile {
			return errCodeReplayed
		}
		for id, old := range st.Grants {
			if old.ClientID == c.ID { // the new consent replaces the old
				delete(st.Grants, id)
			}
		}
		resp = s.issue(g, now, nil)
		st.Grants[g.ID] = g
		return nil
	})
	if errors.Is(err, errCodeReplayed) {
		oauthError(w, http.StatusBadRequest, "invalid_grant", "the code was presented twice: authorize again")
		return
	}
	if err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_grant", "the client was revoked")
		return
	}
	writeJSON(w, http.StatusOK, resp)
}

func (s *Server) refresh(w http.ResponseWriter, r *http.Request, c *Client) {
	h := hashToken(r.PostForm.Get("refresh_token"))
	now := s.cfg.Now()
	var resp tokenResponse
	errGone := errors.New("gone")
	err := s.store.update(func(st *state) error {
		for id, g := range st.Grants {
			if slices.Contains(g.Retired, h) {
				// A rotated-out token came back: someone else holds a copy.
				// The grant ends; the person consents again.
				delete(st.Grants, id)
				return nil
			}
			if subtle.ConstantTimeCompare([]byte(g.RefreshHash), []byte(h)) != 1 {
				continue
			}
			if g.ClientID != c.ID || !now.Before(g.RefreshExpires) {
				return errGone
			}
			// A scope asked for must be one the grant has (never wider);
			// the new access token carries only the scopes asked for.
			var narrow []string
			if sc := strings.Fields(r.PostForm.Get("scope")); len(sc) > 0 {
				for _, want := range sc {
					if !slices.Contains(g.Scopes, want) {
						return errGone
					}
				}
				for _, have := range g.Scopes {
					if slices.Contains(sc, have) {
						narrow = append(narrow, have)
					}
				}
			}
			resp = s.issue(g, now, narrow)
			return nil
		}
		return errGone
	})
	// No new token (a replay's grant was deleted above, and stays deleted):
	// refused.
	if err != nil || resp.AccessToken == "" {
		oauthError(w, http.StatusBadRequest, "invalid_grant", "the refresh token is unknown, expired, revoked or another client's: authorize again")
		return
	}
	writeJSON(w, http.StatusOK, resp)
}

// revoke is token revocation (RFC 7009): a client's access or refresh
// token ends its whole grant. An unknown token is not an error.
func (s *Server) revoke(w http.ResponseWriter, r *http.Request) {
	c, ok := s.clientRequest(w, r)
	if !ok {
		return
	}
	h := hashToken(r.PostForm.Get("token"))
	err := s.store.update(func(st *state) error {
		for id, g := range st.Grants {
			if g.ClientID != c.ID {
				continue
			}
			hit := g.RefreshHash == h
			for _, a := range g.Access {
				hit = hit || a.Hash == h
			}
			if hit {
				delete(st.Grants, id)
			}
		}
		return nil
	})
	if err != nil {
		oauthError(w, http.StatusInternalServerError, "server_error", "the server could not record the revocation")
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
}

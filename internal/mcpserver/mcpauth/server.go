package mcpauth

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// ScopePrefix starts every scope: "tool:exec" grants the exec tool.
const ScopePrefix = "tool:"

// Defaults for token lifetimes.
const (
	DefaultAccessTTL  = 30 * time.Minute
	DefaultRefreshTTL = 30 * 24 * time.Hour
	codeTTL           = 2 * time.Minute
	consentTTL        = 10 * time.Minute
	consentTries      = 5
	maxPending        = 16
	maxClients        = 64
	maxBody           = 64 << 10
)

// Endpoint paths under the public URL.
const (
	PathASMetadata = "/.well-known/oauth-authorization-server"
	PathRegister   = "/oauth/register"
	PathAuthorize  = "/oauth/authorize"
	PathConsent    = "/oauth/consent"
	PathToken      = "/oauth/token"
	PathRevoke     = "/oauth/revoke"
)

// Config is what the authorization server serves.
type Config struct {
	// Issuer is the server's public base URL (scheme and host, no path):
	// what a client reached through the person's tunnel or proxy.
	Issuer string
	// Resource is the MCP endpoint's URL, the only audience tokens are for.
	Resource string
	// Tools are the tools a grant can name, in the order the page shows.
	Tools []string
	// Paths are shown on the consent page ("/srv/app (rw)").
	Paths []string
	// Current, when set, gives the tools and paths of the server's config
	// as it is now (a reload changes them): the page, the metadata and
	// every consent use it instead of Tools and Paths.
	Current func() (tools, paths []string)
	// Name is the server's name on the consent page.
	Name                  string
	AccessTTL, RefreshTTL time.Duration
	// Notify tells the person the one-time code for a consent request (in
	// their terminal); it must not reach the client.
	Notify func(Notice)
	// Now is the clock (tests move it).
	Now func() time.Time
}

// Notice is a consent request the person is told about.
type Notice struct {
	Client      string // the client's own name, made safe for a terminal by the caller
	ClientID    string
	RedirectURI string
	Code        string
	Expires     time.Time
}

// Server is the authorization server.
type Server struct {
	cfg   Config
	store *Store

	mu      sync.Mutex
	pending map[string]*pending  // by request id
	codes   map[string]*authCode // by hash of the code
}

// authCode is an issued authorization code, waiting for its exchange.
type authCode struct {
	clientID, redirectURI, challenge, resource string
	scopes                                     []string
	expires                                    time.Time
	used                                       bool
	replayed                                   bool   // presented again: its grant must not stand
	grantID                                    string // the grant its exchange makes (set before it is stored)
}

// New is the authorization server for cfg on store.
func New(cfg Config, store *Store) (*Server, error) {
	if cfg.Current != nil {
		cfg.Tools, cfg.Paths = cfg.Current()
	}
	if cfg.Issuer == "" || cfg.Resource == "" || len(cfg.Tools) == 0 {
		return nil, errors.New("mcpauth: the issuer, the resource and the tools are required")
	}
	if cfg.AccessTTL <= 0 {
		cfg.AccessTTL = DefaultAccessTTL
	}
	if cfg.RefreshTTL <= 0 {
		cfg.RefreshTTL = DefaultRefreshTTL
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Notify == nil {
		return nil, errors.New("mcpauth: Notify is required: the person must see the consent code")
	}
	cfg.Issuer = strings.TrimSuffix(cfg.Issuer, "/")
	return &Server{cfg: cfg, store: store, pending: map[string]*pending{}, codes: map[string]*authCode{}}, nil
}

// tools are the tools a grant can name now.
func (s *Server) tools() []string {
	if s.cfg.Current != nil {
		t, _ := s.cfg.Current()
		return t
	}
	return s.cfg.Tools
}

// paths are the paths the consent page shows now.
func (s *Server) paths() []string {
	if s.cfg.Current != nil {
		_, p := s.cfg.Current()
		return p
	}
	return s.cfg.Paths
}

// Scopes are every scope a grant can hold.
func (s *Server) Scopes() []string {
	tools := s.tools()
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = ScopePrefix + t
	}
	return out
}

// Metadata is the authorization-server metadata (RFC 8414).
func (s *Server) Metadata() *oauthex.AuthServerMeta {
	return &oauthex.AuthServerMeta{
		Issuer:                                     s.cfg.Issuer,
		AuthorizationEndpoint:                      s.cfg.Issuer + PathAuthorize,
		TokenEndpoint:                              s.cfg.Issuer + PathToken,
		RegistrationEndpoint:                       s.cfg.Issuer + PathRegister,
		RevocationEndpoint:                         s.cfg.Issuer + PathRevoke,
		ScopesSupported:                            s.Scopes(),
		ResponseTypesSupported:                     []string{"code"},
		GrantTypesSupported:                        []string{"authorization_code", "refresh_token"},
		TokenEndpointAuthMethodsSupported:          []string{"none", "client_secret_post", "client_secret_basic"},
		RevocationEndpointAuthMethodsSupported:     []string{"none", "client_secret_post", "client_secret_basic"},
		CodeChallengeMethodsSupported:              []string{"S256"},
		AuthorizationResponseIssParameterSupported: true,
	}
}

// Mount puts the endpoints on mux.
func (s *Server) Mount(mux *http.ServeMux) {
	mux.HandleFunc("GET "+PathASMetadata, s.serveMetadata)
	mux.HandleFunc("OPTIONS "+PathASMetadata, s.serveMetadata)
	mux.HandleFunc("POST "+PathRegister, s.register)
	mux.HandleFunc("OPTIONS "+PathRegister, cors)
	mux.HandleFunc("GET "+PathAuthorize, s.authorize)
	mux.Handle("POST "+PathConsent, http.NewCrossOriginProtection().Handler(http.HandlerFunc(s.consent)))
	mux.HandleFunc("POST "+PathToken, s.token)
	mux.HandleFunc("OPTIONS "+PathToken, cors)
	mux.HandleFunc("POST "+PathRevoke, s.revoke)
	mux.HandleFunc("OPTIONS "+PathRevoke, cors)
}

// cors lets a browser-based client read the JSON endpoints: they take no
// cookie and no ambient credential, so any origin is safe.
func cors(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.Header().Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
	w.Header().Set("Access-Control-Allow-Headers", "Content-Type, Authorization")
	if r.Method == http.MethodOptions {
		w.WriteHeader(http.StatusNoContent)
	}
}

func (s *Server) serveMetadata(w http.ResponseWriter, r *http.Request) {
	cors(w, r)
	if r.Method == http.MethodOptions {
		return
	}
	writeJSON(w, http.StatusOK, s.Metadata())
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// oauthError is an error response of the token, registration and
// revocation endpoints.
func oauthError(w http.ResponseWriter, status int, code, desc string) {
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Basic realm="sentinel mcp"`)
	}
	writeJSON(w, status, map[string]string{"error": code, "error_description": desc})
}

// Verify is the resource server's token check: an access token this server
// issued, not expired, whose grant and client still stand.
func (s *Server) Verify(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	h := hashToken(token)
	now := s.cfg.Now()
	var info *auth.TokenInfo
	err := s.store.view(func(st *state) error {
		for _, g := range st.Grants {
			for _, a := range g.Access {
				if subtle.ConstantTimeCompare([]byte(a.Hash), []byte(h)) != 1 {
					continue
				}
				if !now.Before(a.Expires) || st.Clients[g.ClientID] == nil {
					return auth.ErrInvalidToken
				}
				info = &auth.TokenInfo{Scopes: s.current(a.scopes(g)), Expiration: a.Expires, UserID: g.ClientID}
				return nil
			}
		}
		return auth.ErrInvalidToken
	})
	if err != nil {
		if !errors.Is(err, auth.ErrInvalidToken) {
			// The state cannot be read: no token is good.
			return nil, fmt.Errorf("%w: %v", auth.ErrInvalidToken, err)
		}
		return nil, err
	}
	return info, nil
}

// current keeps of a grant's scopes those the config grants now: a tool a
// reload took away is not reached by a grant made before it.
func (s *Server) current(scopes []string) []string {
	tools := s.tools()
	var out []string
	for _, sc := range scopes {
		if t, ok := strings.CutPrefix(sc, ScopePrefix); ok && slices.Contains(tools, t) {
			out = append(out, sc)
		}
	}
	return out
}

// GrantedTools are the tools a verified token's scopes name.
func GrantedTools(info *auth.TokenInfo) []string {
	var out []string
	if info == nil {
		return nil
	}
	for _, sc := range info.Scopes {
		if t, ok := strings.CutPrefix(sc, ScopePrefix); ok {
			out = append(out, t)
		}
	}
	return out
}

// s256 is the PKCE S256 challenge of a verifier.
func s256(verifier string) string {
	h := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(h[:])
}

// sameResource compares resource indicators, a trailing slash aside.
func (s *Server) sameResource(r string) bool {
	return strings.TrimSuffix(r, "/") == strings.TrimSuffix(s.cfg.Resource, "/")
}

// redirectAllowed says whether a client may register uri: https anywhere,
// http only to loopback, or a native app's own scheme; never a script,
// data or file URL, never a fragment.
func redirectAllowed(uri string) error {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme == "" || u.Fragment != "" || strings.ContainsAny(uri, " \t\r\n<>\"") {
		return fmt.Errorf("redirect_uri %q: give an absolute URL without a fragment", uri)
	}
	switch scheme := strings.ToLower(u.Scheme); scheme {
	case "https":
		if u.Host == "" {
			return fmt.Errorf("redirect_uri %q has no host", uri)
		}
	case "http":
		h := u.Hostname()
		if h != "localhost" && h != "127.0.0.1" && h != "::1" {
			return fmt.Errorf("redirect_uri %q: plain http only to loopback (localhost, 127.0.0.1, [::1])", uri)
		}
	case "javascript", "data", "vbscript", "file", "blob", "about", "ftp", "ws", "wss":
		return fmt.Errorf("redirect_uri %q: scheme %s is not a redirect", uri, scheme)
	default:
		if !strings.Contains(scheme, ".") && len(u.Opaque) == 0 && u.Host == "" && u.Path == "" {
			return fmt.Errorf("redirect_uri %q: a native app's scheme needs a path", uri)
		}
	}
	return nil
}

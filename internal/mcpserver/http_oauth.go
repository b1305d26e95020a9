package mcpserver

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"crypto/tls"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/sentinelhq/sentinel/internal/mcpserver/mcpauth"
	"github.com/sentinelhq/sentinel/internal/slowtell"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/internal/userstate"
)

// MCPPath is the MCP endpoint's path when OAuth is on.
const MCPPath = "/mcp"

// Paths of the protected-resource metadata (RFC 9728): at the endpoint's
// path (what the WWW-Authenticate challenge names) and at the root.
const (
	prmPath     = "/.well-known/oauth-protected-resource"
	prmPathMCP  = prmPath + MCPPath
	allToolsTag = mcpauth.ScopePrefix + "*" // a static bearer token: every tool
)

// OAuthClients opens the OAuth state of a config file, for `sentinel mcp
// clients` (another process than the server; revocations reach the server
// through the file at once).
func OAuthClients(configFile string) (*mcpauth.Store, error) {
	p, err := OAuthStatePath(configFile)
	if err != nil {
		return nil, fmt.Errorf("oauth state for %s: %w", configFile, err)
	}
	return mcpauth.OpenStore(p)
}

// OAuthStatePath is the file of a config's OAuth clients and grants, in the
// user's state dir (where no tool reaches), one per config file.
func OAuthStatePath(configFile string) (string, error) {
	abs, err := filepath.Abs(configFile)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	h := sha256.Sum256([]byte(abs))
	return userstate.Path(filepath.Join("mcp", "oauth-"+hex.EncodeToString(h[:8])+".json"))
}

// Resource is the MCP endpoint's public URL, the audience of every token.
func (c *Config) Resource() string { return c.OAuth.PublicURL + MCPPath }

// grantableTools are the tools a client can be granted: every op not
// disabled.
func (c *Config) grantableTools() []string {
	var out []string
	for _, op := range Ops {
		if !c.disabled(op) {
			out = append(out, op)
		}
	}
	return out
}

// oauthHandler serves OAuth: the protected-resource metadata, the built-in
// authorization server, and the MCP endpoint behind its tokens (or the
// config's static token, which stands for every tool).
func (s *Server) oauthHandler(token string, notify io.Writer) (http.Handler, error) {
	if s.cfg.ExternalIssuer() {
		return s.externalHandler(token)
	}
	store, err := s.oauthStore()
	if err != nil {
		return nil, err
	}
	as, err := mcpauth.New(mcpauth.Config{
		Issuer: s.cfg.OAuth.PublicURL, Resource: s.cfg.Resource(), Current: s.grantable,
		Name: "Sentinel MCP at " + s.cfg.OAuth.PublicURL, AccessTTL: s.cfg.OAuth.access, RefreshTTL: s.cfg.OAuth.refresh,
		Notify: func(n mcpauth.Notice) {
			fmt.Fprintf(notify, "sentinel mcp: %q (client %s) asks for access; its answer goes to %s\n  consent code: %s  (type it on the consent page; one use, until %s)\n",
				n.Client, n.ClientID, n.RedirectURI, n.Code, n.Expires.Format(time.TimeOnly))
		},
		Now: s.oauthNow,
	}, store)
	if err != nil {
		return nil, err
	}
	return s.oauthMux(as, token), nil
}

// grantable are the tools a grant can name and the paths the consent page
// shows, from the generation current now (a reload changes them).
func (s *Server) grantable() (tools, paths []string) {
	cur := s.gens.current()
	for _, p := range cur.cfg.Paths {
		paths = append(paths, p.real+" ("+p.Access+")")
	}
	return cur.cfg.grantableTools(), paths
}

func (s *Server) oauthStore() (*mcpauth.Store, error) {
	p, err := OAuthStatePath(s.cfg.File)
	if err != nil {
		return nil, fmt.Errorf("oauth state: %w", err)
	}
	return mcpauth.OpenStore(p)
}

func (s *Server) oauthMux(as *mcpauth.Server, token string) http.Handler {
	mux := http.NewServeMux()
	as.Mount(mux)
	return s.resourceMux(mux, s.cfg.OAuth.PublicURL, as.Scopes, as.Verify, token)
}

// externalHandler serves the MCP endpoint behind an external issuer's
// JWT access tokens; no authorization server of its own.
func (s *Server) externalHandler(token string) (http.Handler, error) {
	o := s.cfg.OAuth
	// The first fetch of the issuer's keys may take up to its bound;
	// the person is told what the server waits for, not left silent.
	done := slowtell.Start(slowtell.After, func(took time.Duration) {
		s.notice("[oauth] fetching the keys of issuer %s (%s so far)", o.Issuer, slowtell.Took(took))
	})
	ext, err := mcpauth.NewExternal(mcpauth.ExternalConfig{Issuer: o.Issuer, Audience: s.cfg.audience(), JWKSURL: o.JWKSURL,
		Tools: func() []string { t, _ := s.grantable(); return t }, Client: s.opts.issuerClient, Now: s.oauthNow, AcceptAnyTyp: o.AcceptAnyTyp})
	done()
	if ext == nil {
		return nil, err
	}
	if err != nil {
		// Every token is refused until the keys can be fetched.
		s.notice("[oauth] issuer %s: %s; every token is refused until its keys can be fetched", o.Issuer, oneLine(err))
	}
	scopes := func() []string {
		t, _ := s.grantable()
		out := make([]string, len(t))
		for i, n := range t {
			out[i] = mcpauth.ScopePrefix + n
		}
		return out
	}
	return s.resourceMux(http.NewServeMux(), o.Issuer, scopes, ext.Verify, token), nil
}

// resourceMux adds to mux the protected-resource metadata naming issuer
// and the MCP endpoint behind verify's tokens (or the config's static
// token, which stands for every tool).
func (s *Server) resourceMux(mux *http.ServeMux, issuer string, scopes func() []string, check auth.TokenVerifier, token string) http.Handler {
	s.grantOnce.Do(func() { s.mcp.AddReceivingMiddleware(s.grantGate) })
	// The scopes are the current generation's: built at each request.
	prm := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
			Resource: s.cfg.Resource(), AuthorizationServers: []string{issuer}, ScopesSupported: scopes(),
			BearerMethodsSupported: []string{"header"}, ResourceName: "Sentinel MCP",
		}).ServeHTTP(w, r)
	})
	mux.Handle(prmPath, prm)
	mux.Handle(prmPathMCP, prm)
	want := []byte(token)
	verify := func(ctx context.Context, got string, r *http.Request) (*auth.TokenInfo, error) {
		if len(want) > 0 && subtle.ConstantTimeCompare([]byte(got), want) == 1 {
			return &auth.TokenInfo{UserID: "sentinel-mcp", Scopes: []string{allToolsTag}}, nil
		}
		return check(ctx, got, r)
	}
	mcpEndpoint := auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{
		ResourceMetadataURL: s.cfg.OAuth.PublicURL + prmPathMCP, AllowMissingExpiration: len(want) > 0,
	})(http.NewCrossOriginProtection().Handler(s.streamableHandler()))
	mux.Handle(MCPPath, mcpEndpoint)
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "Sentinel MCP: the MCP endpoint is "+s.cfg.Resource(), http.StatusNotFound)
	})
	return mux
}

// oauthNow is the authorization server's clock (tests replace it).
func (s *Server) oauthNow() time.Time {
	if s.clock != nil {
		return s.clock()
	}
	return time.Now()
}

// grantGate keeps a client to the tools its grant names: tools/list shows
// only those, and a call to any other is refused (and journaled). Requests
// with no token (stdio) pass; over HTTP every request carries one.
func (s *Server) grantGate(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		extra := req.GetExtra()
		if extra == nil || extra.TokenInfo == nil {
			return next(ctx, method, req)
		}
		info := extra.TokenInfo
		// Judged against the config as it is now: a grant made before a
		// reload reaches no tool the reload disabled.
		now := s.gens.current().cfg
		allowed := func(tool string) bool {
			if slices.Contains(info.Scopes, allToolsTag) {
				return true
			}
			return slices.Contains(mcpauth.GrantedTools(info), tool) && !now.disabled(tool)
		}
		switch method {
		case "tools/call":
			call, ok := req.(*mcp.CallToolRequest)
			if !ok || call.Params == nil {
				return nil, fmt.Errorf("tools/call without params")
			}
			if !allowed(call.Params.Name) {
				r := &Refusal{Class: ClassOpDisabled, Rule: "oauth grant", Reason: "the person did not grant this client the " + call.Params.Name + " tool",
					Use: "use a tool from tools/list; the person can grant more by connecting the client again"}
				c := Call{Tool: call.Params.Name, Decision: DecisionDeny, Class: r.Class, Rule: r.Rule, Reason: r.Reason}
				c.Args, c.ArgsSummary = summarize(call.Params.Arguments)
				markAudited(ctx)
				if err := s.audit.call(textsafe.Line(call.Params.Name+" deny [op-disabled] outside the client's OAuth grant"), c); err != nil {
					return nil, fmt.Errorf("the audit journal failed, so this server stops answering: %w", err)
				}
				return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: r.Error()}}}, nil
			}
			ctx = withExecGrant(ctx, allowed("exec"))
		case "tools/list":
			res, err := next(ctx, method, req)
			if lt, ok := res.(*mcp.ListToolsResult); ok && err == nil {
				kept := lt.Tools[:0:0]
				for _, t := range lt.Tools {
					if allowed(t.Name) {
						kept = append(kept, t)
					}
				}
				lt.Tools = kept
			}
			return res, err
		}
		return next(ctx, method, req)
	}
}

// HTTPHandler is what ServeHTTP serves: with [oauth], the OAuth endpoints
// and the MCP endpoint at /mcp (consent codes go to the Warn writer);
// without, the MCP endpoint at / behind the bearer token.
func (s *Server) HTTPHandler(token string) (http.Handler, error) {
	if !s.cfg.OAuthEnabled() {
		return closeRefused(s.Handler(token)), nil
	}
	w := s.opts.Warn
	if w == nil {
		w = os.Stderr
	}
	h, err := s.oauthHandler(token, w)
	if err != nil {
		return nil, err
	}
	return closeRefused(h), nil
}

// httpServing is the handler and, with [tls], the TLS config (the
// certificate read now, so a bad file stops the start).
func (s *Server) httpServing(token string) (http.Handler, *tls.Config, error) {
	var tlsCfg *tls.Config
	if s.cfg.TLSEnabled() {
		cert, err := tls.LoadX509KeyPair(s.cfg.TLS.Cert, s.cfg.TLS.Key)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: [tls] cert %s / key %s: %v (give PEM files, e.g. from your ACME client)", s.cfg.File, s.cfg.TLS.Cert, s.cfg.TLS.Key, err)
		}
		tlsCfg = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	h, err := s.HTTPHandler(token)
	return h, tlsCfg, err
}

// EndpointURL is where clients connect, for the start-up line.
func (s *Server) EndpointURL(listening string) string {
	if s.cfg.OAuthEnabled() {
		return s.cfg.Resource()
	}
	scheme := "http"
	if s.cfg.TLSEnabled() {
		scheme = "https"
	}
	return scheme + "://" + listening + "/"
}

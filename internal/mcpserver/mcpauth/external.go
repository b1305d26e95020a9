package mcpauth

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"golang.org/x/sync/singleflight"
)

// An External is the resource server's check of access tokens an external
// authorization server (the person's identity provider) issues as signed
// JWTs (RFC 9068): the signature against the issuer's published keys
// (JWKS), the issuer, the audience (this server's MCP endpoint), the
// expiry and not-before times, and the tool scopes. The built-in
// authorization server is then off.
//
// Only asymmetric signature algorithms are accepted, each against a key of
// its own kind: "none", HMAC with a public key as its secret, and a key
// the JWKS lists for encryption or another algorithm are refused. With no
// keys (the JWKS could not be fetched) every token is refused.

// ExternalConfig is what an External checks tokens against.
type ExternalConfig struct {
	// Issuer is the "iss" every token must carry, exactly.
	Issuer string
	// Audience is the "aud" a token must name: the MCP endpoint's URL.
	Audience string
	// JWKSURL is where the issuer's keys are; "" finds it through the
	// issuer's metadata (OpenID discovery, then RFC 8414).
	JWKSURL string
	// Tools gives the tools a scope can name now (a reload changes them).
	Tools func() []string
	// Client fetches the metadata and the keys (nil: a client with a
	// timeout and no proxy).
	Client *http.Client
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// AcceptAnyTyp accepts tokens whatever their "typ" header; by
	// default it must be at+jwt (RFC 9068), so an ID token or another
	// JWT the issuer signs is not taken for an access token.
	AcceptAnyTyp bool
}

// asymmetric are the signature algorithms a token may use.
var asymmetric = []jose.SignatureAlgorithm{jose.RS256, jose.RS384, jose.RS512, jose.PS256, jose.PS384, jose.PS512,
	jose.ES256, jose.ES384, jose.ES512, jose.EdDSA}

const (
	maxJWKS = 1 << 20
	// keysRefetch is the least time between two fetches of the keys
	// (a token naming an unknown key asks for one).
	keysRefetch = 30 * time.Second
	// keysTTL is how long fetched keys are used before they are fetched
	// again; keysStale is how long they stay good while fetches fail.
	keysTTL   = time.Hour
	keysStale = 24 * time.Hour
	leeway    = 30 * time.Second
	// fetchTimeout bounds one fetch of the keys (discovery included).
	fetchTimeout = 30 * time.Second
)

// External verifies an external issuer's tokens.
type External struct {
	cfg ExternalConfig

	flight    singleflight.Group // one fetch of the keys at a time
	mu        sync.Mutex         // the fields below; never held while fetching
	jwksURL   string
	keys      *jose.JSONWebKeySet
	fetched   time.Time // last successful fetch
	attempted time.Time // last attempt
	lastErr   error
}

// NewExternal is the verifier for cfg; it fetches the keys once now and
// returns the fetch's error beside a working verifier (which refuses every
// token until a fetch succeeds).
func NewExternal(cfg ExternalConfig) (*External, error) {
	if cfg.Issuer == "" || cfg.Audience == "" || cfg.Tools == nil {
		return nil, errors.New("mcpauth: the issuer, the audience and the tools are required")
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{Timeout: 15 * time.Second, Transport: &http.Transport{Proxy: http.ProxyFromEnvironment}}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	// Every hop of every fetch is https (http only on loopback): a
	// redirect or a discovered jwks_uri cannot downgrade the keys' path.
	c := *cfg.Client
	c.CheckRedirect = func(r *http.Request, via []*http.Request) error {
		if len(via) >= 5 {
			return errors.New("more than 5 redirects")
		}
		return fetchable(r.URL)
	}
	cfg.Client = &c
	e := &External{cfg: cfg, jwksURL: cfg.JWKSURL}
	ctx, cancel := context.WithTimeout(context.Background(), fetchTimeout)
	defer cancel()
	return e, e.refresh(ctx)
}

// Verify is the resource server's token check (auth.TokenVerifier).
func (e *External) Verify(ctx context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	bad := func(why string, a ...any) (*auth.TokenInfo, error) {
		return nil, fmt.Errorf("%w: %s", auth.ErrInvalidToken, fmt.Sprintf(why, a...))
	}
	tok, err := jwt.ParseSigned(token, asymmetric)
	if err != nil {
		return bad("not a JWT signed with an asymmetric algorithm: %v", err)
	}
	if len(tok.Headers) != 1 {
		return bad("one signature expected")
	}
	h := tok.Headers[0]
	if typ, _ := h.ExtraHeaders[jose.HeaderType].(string); !e.cfg.AcceptAnyTyp && !accessTokenTyp(typ) {
		return bad("typ %q is not at+jwt: not an access token (RFC 9068; [oauth] accept_any_typ = true for an issuer that does not set it)", typ)
	}
	key, err := e.key(ctx, h.KeyID, h.Algorithm)
	if err != nil {
		return bad("%v", err)
	}
	var claims jwt.Claims
	var extra struct {
		Scope string   `json:"scope"`
		Scp   []string `json:"scp"`
	}
	if err := tok.Claims(key.Key, &claims, &extra); err != nil {
		return bad("signature: %v", err)
	}
	if claims.Expiry == nil {
		return bad("no exp claim")
	}
	if err := claims.ValidateWithLeeway(jwt.Expected{Issuer: e.cfg.Issuer, AnyAudience: jwt.Audience{e.cfg.Audience}, Time: e.cfg.Now()}, leeway); err != nil {
		return bad("%v", err)
	}
	scopes := append(strings.Fields(extra.Scope), extra.Scp...)
	tools := e.cfg.Tools()
	var granted []string
	for _, sc := range scopes {
		if t, ok := strings.CutPrefix(sc, ScopePrefix); ok && slices.Contains(tools, t) && !slices.Contains(granted, sc) {
			granted = append(granted, sc)
		}
	}
	if len(granted) == 0 {
		return bad("the token grants no tool of this server (scopes like %sread)", ScopePrefix)
	}
	return &auth.TokenInfo{Scopes: granted, Expiration: claims.Expiry.Time(), UserID: claims.Subject}, nil
}

// key is the signing key kid names, usable with alg: fetched again (at
// most every keysRefetch) when no key matches or the keys are old. The
// fetch is one for all requests that ask at once, runs without the lock
// and outlives the request that started it (a cancelled request must not
// spoil it), so a token naming a bogus key cannot keep the keys from being
// fetched.
func (e *External) key(ctx context.Context, kid, alg string) (*jose.JSONWebKey, error) {
	if e.stale(kid, alg) {
		ch := e.flight.DoChan("keys", func() (any, error) {
			fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), fetchTimeout)
			defer cancel()
			return nil, e.refresh(fctx)
		})
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, fmt.Errorf("the issuer's keys are being fetched: %v", ctx.Err())
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	now := e.cfg.Now()
	if e.keys == nil || now.Sub(e.fetched) > keysStale {
		return nil, fmt.Errorf("the issuer's keys could not be fetched: %v", e.lastErr)
	}
	k := pick(e.keys, kid, alg)
	if k == nil {
		return nil, fmt.Errorf("no signing key %q for %s in the issuer's JWKS", kid, alg)
	}
	return k, nil
}

// stale says whether the keys should be fetched for kid and alg now.
func (e *External) stale(kid, alg string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	now := e.cfg.Now()
	if e.keys != nil && now.Sub(e.fetched) <= keysTTL && pick(e.keys, kid, alg) != nil {
		return false
	}
	return now.Sub(e.attempted) >= keysRefetch || e.attempted.IsZero() || e.attempted.After(now)
}

// pick is the public signing key for kid and alg in set, or nil.
func pick(set *jose.JSONWebKeySet, kid, alg string) *jose.JSONWebKey {
	var found *jose.JSONWebKey
	for i := range set.Keys {
		k := &set.Keys[i]
		if kid != "" && k.KeyID != kid {
			continue
		}
		if (k.Use != "" && k.Use != "sig") || (k.Algorithm != "" && k.Algorithm != alg) || !k.IsPublic() || !fits(k.Key, alg) {
			continue
		}
		if found != nil {
			return nil // two keys fit a token that names none: refuse
		}
		found = k
	}
	return found
}

// fits says whether a public key of key's kind verifies alg: an RSA key
// only RS/PS, an EC key only ES, an Ed25519 key only EdDSA.
func fits(key any, alg string) bool {
	switch key.(type) {
	case *rsa.PublicKey:
		return strings.HasPrefix(alg, "RS") || strings.HasPrefix(alg, "PS")
	case *ecdsa.PublicKey:
		return strings.HasPrefix(alg, "ES")
	case ed25519.PublicKey:
		return alg == string(jose.EdDSA)
	}
	return false
}

// refresh fetches the keys (finding the JWKS URL first when it is not
// known) without the lock; on failure the keys held stay and the error is
// kept. Only a finished attempt counts toward keysRefetch.
func (e *External) refresh(ctx context.Context) error {
	e.mu.Lock()
	jwksURL := e.jwksURL
	e.mu.Unlock()
	var set jose.JSONWebKeySet
	err := func() error {
		if jwksURL == "" {
			u, err := e.discover(ctx)
			if err != nil {
				return err
			}
			jwksURL = u
		}
		if err := e.getJSON(ctx, jwksURL, &set); err != nil {
			return fmt.Errorf("JWKS %s: %w", jwksURL, err)
		}
		if len(set.Keys) == 0 {
			return fmt.Errorf("JWKS %s holds no key", jwksURL)
		}
		return nil
	}()
	e.mu.Lock()
	defer e.mu.Unlock()
	e.attempted, e.lastErr = e.cfg.Now(), err
	if jwksURL != "" {
		e.jwksURL = jwksURL
	}
	if err == nil {
		e.keys, e.fetched = &set, e.cfg.Now()
	}
	return err
}

// discover finds the JWKS URL in the issuer's metadata, whose issuer must
// be the configured one.
func (e *External) discover(ctx context.Context) (string, error) {
	iss := strings.TrimSuffix(e.cfg.Issuer, "/")
	u, err := url.Parse(iss)
	if err != nil {
		return "", err
	}
	candidates := []string{iss + "/.well-known/openid-configuration",
		u.Scheme + "://" + u.Host + "/.well-known/oauth-authorization-server" + u.Path}
	var errs []string
	for _, c := range candidates {
		var meta struct {
			Issuer  string `json:"issuer"`
			JWKSURI string `json:"jwks_uri"`
		}
		if err := e.getJSON(ctx, c, &meta); err != nil {
			errs = append(errs, err.Error())
			continue
		}
		if meta.Issuer != e.cfg.Issuer {
			return "", fmt.Errorf("the metadata at %s names issuer %q, not %q", c, meta.Issuer, e.cfg.Issuer)
		}
		if meta.JWKSURI == "" {
			return "", fmt.Errorf("the metadata at %s names no jwks_uri (set [oauth] jwks_url)", c)
		}
		return meta.JWKSURI, nil
	}
	return "", fmt.Errorf("no issuer metadata: %s (set [oauth] jwks_url)", strings.Join(errs, "; "))
}

func (e *External) getJSON(ctx context.Context, u string, v any) error {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	if err := fetchable(req.URL); err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := e.cfg.Client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxJWKS+1))
	if err != nil {
		return err
	}
	if len(body) > maxJWKS {
		return fmt.Errorf("GET %s: over %d bytes", u, maxJWKS)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("GET %s: %v", u, err)
	}
	return nil
}

// fetchable refuses a URL the keys or the metadata may not come from:
// anything but https, or plain http to a loopback host.
func fetchable(u *url.URL) error {
	h := u.Hostname()
	ip := net.ParseIP(h)
	switch {
	case u.Scheme == "https":
		return nil
	case u.Scheme == "http" && (h == "localhost" || ip != nil && ip.IsLoopback()):
		return nil
	}
	return fmt.Errorf("%s: use https (plain http only on loopback)", u.Redacted())
}

// accessTokenTyp says whether typ names an RFC 9068 access token.
func accessTokenTyp(typ string) bool {
	typ = strings.ToLower(typ)
	return typ == "at+jwt" || typ == "application/at+jwt"
}

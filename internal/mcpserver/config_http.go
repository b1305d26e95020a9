package mcpserver

import (
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/sentinelhq/sentinel/internal/mcpserver/mcpauth"
)

// OAuthSettings is the [oauth] table: OAuth for remote clients (claude.ai,
// ChatGPT) with the built-in authorization server. Its presence turns it on.
type OAuthSettings struct {
	// PublicURL is how clients reach this server: the tunnel's or the
	// proxy's https://HOST (no path). The MCP endpoint is PublicURL/mcp.
	PublicURL       string `toml:"public_url"`
	AccessTokenTTL  string `toml:"access_token_ttl"`
	RefreshTokenTTL string `toml:"refresh_token_ttl"`
	// Issuer, when set, is an external authorization server (the person's
	// identity provider) whose JWT access tokens this server accepts; the
	// built-in one is then off. Audience is the "aud" those tokens must
	// name (default: the MCP endpoint's URL); JWKSURL is where the
	// issuer's keys are (default: found through its metadata).
	Issuer   string `toml:"issuer"`
	Audience string `toml:"audience"`
	JWKSURL  string `toml:"jwks_url"`
	// AcceptAnyTyp accepts the issuer's tokens whatever their "typ"
	// header (by default it must be at+jwt, RFC 9068).
	AcceptAnyTyp bool `toml:"accept_any_typ"`

	enabled         bool
	access, refresh time.Duration
}

// TLSSettings is the [tls] table: serve HTTPS with the person's own
// certificate and key (PEM files).
type TLSSettings struct {
	Cert string `toml:"cert"`
	Key  string `toml:"key"`
}

const httpKnownKeys = "[oauth] public_url/access_token_ttl/refresh_token_ttl/issuer/audience/jwks_url/accept_any_typ, [tls] cert/key, [sudo] socket/files"

// checkHTTP validates [oauth] and [tls].
func (c *Config) checkHTTP(path, src string, md toml.MetaData) error {
	bad := func(key toml.Key, format string, a ...any) error {
		return fmt.Errorf("%s:%d: %s", path, findLine(src, key), fmt.Sprintf(format, a...))
	}
	o := &c.OAuth
	o.enabled = md.IsDefined("oauth")
	if o.enabled {
		u, err := url.Parse(o.PublicURL)
		switch {
		case o.PublicURL == "":
			return bad(toml.Key{"oauth"}, "[oauth] needs public_url: the https://HOST clients reach this server at (your tunnel's or proxy's address)")
		case err != nil || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil || strings.Trim(u.Path, "/") != "":
			return bad(toml.Key{"oauth", "public_url"}, "[oauth] public_url %q: give scheme and host only, e.g. \"https://mcp.example.com\" (the MCP endpoint is then https://mcp.example.com/mcp)", o.PublicURL)
		case u.Scheme == "http" && !loopbackHost(u.Hostname()):
			return bad(toml.Key{"oauth", "public_url"}, "[oauth] public_url %q: OAuth needs https beyond loopback (put a TLS tunnel or proxy in front, or set [tls] cert and key)", o.PublicURL)
		case u.Scheme != "http" && u.Scheme != "https":
			return bad(toml.Key{"oauth", "public_url"}, "[oauth] public_url %q: use https://HOST", o.PublicURL)
		}
		o.PublicURL = u.Scheme + "://" + u.Host
		dur := func(key, v string, def, lo, hi time.Duration) (time.Duration, error) {
			if v == "" {
				return def, nil
			}
			d, err := time.ParseDuration(v)
			if err != nil || d < lo || d > hi {
				return 0, bad(toml.Key{"oauth", key}, "[oauth] %s %q: give a duration between %s and %s, e.g. %q", key, v, lo, hi, def.String())
			}
			return d, nil
		}
		if o.Issuer != "" {
			if err := c.checkIssuer(bad); err != nil {
				return err
			}
		}
		if o.access, err = dur("access_token_ttl", o.AccessTokenTTL, mcpauth.DefaultAccessTTL, time.Minute, 24*time.Hour); err != nil {
			return err
		}
		if o.refresh, err = dur("refresh_token_ttl", o.RefreshTokenTTL, mcpauth.DefaultRefreshTTL, time.Hour, 365*24*time.Hour); err != nil {
			return err
		}
	}
	t := c.TLS
	if (t.Cert == "") != (t.Key == "") {
		return bad(toml.Key{"tls"}, "[tls] needs both cert and key (PEM files), or neither")
	}
	for k, p := range map[string]string{"cert": t.Cert, "key": t.Key} {
		if p != "" && !filepath.IsAbs(p) {
			return bad(toml.Key{"tls", k}, "[tls] %s %q: give an absolute path", k, p)
		}
	}
	return nil
}

// checkIssuer validates an external issuer's keys.
func (c *Config) checkIssuer(bad func(toml.Key, string, ...any) error) error {
	o := &c.OAuth
	web := func(key, v string, pathOK bool) error {
		u, err := url.Parse(v)
		switch {
		case err != nil || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil || (!pathOK && strings.Trim(u.Path, "/") != ""):
			return bad(toml.Key{"oauth", key}, "[oauth] %s %q: give an absolute https URL without query or fragment, e.g. \"https://login.example.com/realms/me\"", key, v)
		case u.Scheme == "http" && !loopbackHost(u.Hostname()), u.Scheme != "http" && u.Scheme != "https":
			return bad(toml.Key{"oauth", key}, "[oauth] %s %q: use https (plain http only on loopback)", key, v)
		}
		return nil
	}
	if err := web("issuer", o.Issuer, true); err != nil {
		return err
	}
	if o.JWKSURL != "" {
		if err := web("jwks_url", o.JWKSURL, true); err != nil {
			return err
		}
	}
	if o.Audience != "" {
		if err := web("audience", o.Audience, true); err != nil {
			return err
		}
	}
	if o.AccessTokenTTL != "" || o.RefreshTokenTTL != "" {
		return bad(toml.Key{"oauth", "issuer"}, "[oauth] issuer is set, so the issuer sets token lifetimes: remove access_token_ttl and refresh_token_ttl")
	}
	return nil
}

// ExternalIssuer says whether tokens come from an external issuer (the
// built-in authorization server is off).
func (c *Config) ExternalIssuer() bool { return c.OAuth.enabled && c.OAuth.Issuer != "" }

// audience is the "aud" an external issuer's tokens must name.
func (c *Config) audience() string {
	if c.OAuth.Audience != "" {
		return c.OAuth.Audience
	}
	return c.Resource()
}

// OAuthEnabled says whether [oauth] is on.
func (c *Config) OAuthEnabled() bool { return c.OAuth.enabled }

// TLSEnabled says whether the server serves HTTPS itself.
func (c *Config) TLSEnabled() bool { return c.TLS.Cert != "" }

func loopbackHost(h string) bool {
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// CheckHTTP refuses a listen address this config must not serve on: with
// OAuth, plain HTTP only on loopback (behind the person's tunnel or proxy),
// any address with [tls]; without OAuth, the bearer-token rules.
func (c *Config) CheckHTTP(addr, token string) error {
	if !c.OAuth.enabled {
		return CheckListen(addr, token)
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--http %s: %v (give HOST:PORT, e.g. 127.0.0.1:8765)", addr, err)
	}
	if !c.TLSEnabled() && !loopbackHost(host) {
		return fmt.Errorf("--http %s: with [oauth] and no [tls], listen on loopback (127.0.0.1:PORT) behind your TLS tunnel or proxy, or set [tls] cert and key in %s to serve HTTPS yourself", addr, c.File)
	}
	return nil
}

package mcpserver

import (
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/sentinelhq/sentinel/runner/mcpserver/mcpauth"
)

// OAuthSettings is the [oauth] table: OAuth for remote clients (claude.ai,
// ChatGPT) with the built-in authorization server. Its presence turns it on.
type OAuthSettings struct {
	// PublicURL is how clients reach this server: the tunnel's or the
	// proxy's https://HOST (no path). The MCP endpoint is PublicURL/mcp.
	PublicURL       string `toml:"public_url"`
	AccessTokenTTL  string `toml:"access_token_ttl"`
	RefreshTokenTTL string `toml:"refresh_token_ttl"`

	enabled         bool
	access, refresh time.Duration
}

// TLSSettings is the [tls] table: serve HTTPS with the person's own
// certificate and key (PEM files).
type TLSSettings struct {
	Cert string `toml:"cert"`
	Key  string `toml:"key"`
}

const httpKnownKeys = "[oauth] public_url/access_token_ttl/refresh_token_ttl, [tls] cert/key"

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

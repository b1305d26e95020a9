package policy

import (
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
)

// normHost lowercases a host and strips a trailing dot and IPv6 brackets.
func normHost(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	h = strings.TrimSuffix(h, ".")
	h = strings.TrimPrefix(h, "[")
	h = strings.TrimSuffix(h, "]")
	return h
}

// metadataHosts are cloud metadata endpoints.
var metadataHosts = wordSet{words: []string{"169.254.169.254", "fd00:ec2::254", "metadata.google.internal", "metadata",
	"metadata.goog", "100.100.100.200", "168.63.129.16", "169.254.170.2", "instance-data",
	"instance-data.ec2.internal", "metadata.azure.com", "169.254.169.253"}}

// obfuscatedIP reports hosts that a resolver would read as an IPv4 address
// but that are not written as a plain dotted quad: 2852039166, 0xa9fea9fe,
// 0251.0376.0251.0376, 169.254.43518.
func obfuscatedIP(h string) bool {
	if h == "" {
		return false
	}
	if _, err := netip.ParseAddr(h); err == nil {
		return false
	}
	for _, part := range strings.Split(h, ".") {
		if part == "" {
			return false
		}
		if _, err := strconv.ParseUint(part, 0, 64); err != nil {
			if !(strings.HasPrefix(part, "0x") || strings.HasPrefix(part, "0X")) {
				return false
			}
			if _, err := strconv.ParseUint(part[2:], 16, 64); err != nil {
				return false
			}
		}
	}
	return true
}

// hostClass says what kind of address h is: "metadata", "private",
// "loopback", "link-local", or "" for an ordinary public name or address.
func hostClass(h string) string {
	if metadataHosts.has(h) {
		return "metadata"
	}
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return "loopback"
	}
	if strings.HasSuffix(h, ".internal") || strings.HasSuffix(h, ".local") || strings.HasSuffix(h, ".lan") || strings.HasSuffix(h, ".home.arpa") {
		return "private"
	}
	a, err := netip.ParseAddr(h)
	if err != nil {
		return ""
	}
	a = a.Unmap()
	switch {
	case a.IsLoopback() || a.IsUnspecified():
		return "loopback"
	case a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast():
		return "link-local"
	case a.IsPrivate():
		return "private"
	case a.Is4() && (a.As4()[0] == 100 && a.As4()[1]&0xc0 == 64): // 100.64/10 carrier-grade NAT
		return "private"
	case a.IsMulticast() || a.IsInterfaceLocalMulticast():
		return "private"
	}
	return ""
}

// hostFinding is the built-in judgment of a host before user rules.
func hostFinding(h string) finding {
	h = normHost(h)
	switch {
	case h == "":
		return finding{Ask, RuleNetBadURL, "no host"}
	case obfuscatedIP(h):
		return finding{Deny, RuleNetObfuscated, "the host " + quoteShort(h) + " is an address written in an unusual numeric form"}
	case hostClass(h) == "metadata":
		return finding{Deny, RuleNetMetadata, "the host " + h + " is a cloud metadata endpoint, which hands out credentials"}
	}
	if !validHostName(h) {
		return finding{Ask, RuleNetBadURL, "the host " + quoteShort(h) + " is not a plain host name"}
	}
	return finding{Ask, RuleNetNewHost, "the host " + h + " is not allowed by any rule"}
}

func validHostName(h string) bool {
	if _, err := netip.ParseAddr(h); err == nil {
		return true
	}
	if len(h) > 253 {
		return false
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_') {
			return false
		}
	}
	return true
}

func (c *checkEnv) checkNet(q Query) Verdict {
	host, port := q.Host, q.Port
	if host == "" && q.URL != "" {
		u, err := url.Parse(q.URL)
		if err != nil || u.Host == "" {
			// Maybe host:port or a bare host.
			if err == nil && !strings.Contains(q.URL, "://") {
				host = q.URL
			} else {
				return verdictOf(finding{Ask, RuleNetBadURL, "the URL cannot be parsed"})
			}
		} else {
			host = u.Hostname()
			if p := u.Port(); p != "" {
				port, _ = strconv.Atoi(p)
			} else if port == 0 {
				switch u.Scheme {
				case "https", "wss":
					port = 443
				case "http", "ws":
					port = 80
				}
			}
		}
	}
	if h, p, err := net.SplitHostPort(host); err == nil {
		host = h
		port, _ = strconv.Atoi(p)
	}
	host = normHost(host)
	f := hostFinding(host)
	f = c.e.applyHostRules(f, host, port)
	f = runHostFinding(f, q.Context.AllowHosts, host, port)
	if f.d != Allow && f.rule == RuleNetNewHost {
		c.never = true
	}
	v := verdictOf(f)
	v.Parts[0].Text = host
	if port != 0 {
		v.Parts[0].Text = net.JoinHostPort(host, strconv.Itoa(port))
	}
	v.NeverDelegable = c.never
	return v
}

// hostMatches reports whether a rule pattern covers host:port. Patterns are
// exact host names, "*.example.com" (subdomains only, never the apex), or
// either with ":port". A wildcard never covers private, loopback,
// link-local or metadata addresses; an IP literal is matched only exactly.
func hostMatches(pattern, host string, port int) bool {
	pattern = strings.ToLower(strings.TrimSpace(pattern))
	if h, p, err := net.SplitHostPort(pattern); err == nil {
		if want, err := strconv.Atoi(p); err != nil || want != port {
			return false
		}
		pattern = h
	}
	pattern = normHost(pattern)
	if suffix, ok := strings.CutPrefix(pattern, "*."); ok {
		if hostClass(host) != "" {
			return false
		}
		if _, err := netip.ParseAddr(host); err == nil {
			return false
		}
		return strings.HasSuffix(host, "."+suffix) && suffix != ""
	}
	return pattern == host
}

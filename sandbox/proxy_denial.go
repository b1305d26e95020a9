package sandbox

import (
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// DeniedHeader is the response header on every refusal of Sentinel's
// proxy: its value is Sentinel's reason, so a tool that shows headers (or
// a person reading a log) learns why, not just "403 Forbidden".
const DeniedHeader = "X-Sentinel-Denied"

// Denial is the proxy refusing a host by Sentinel's own decision (not
// allowed, a person or policy said no, an internal address). It is
// answered with 403 and the reason; an allowed host that cannot be reached
// is a plain error, answered with 502 Bad Gateway.
type Denial struct {
	Host   string
	Port   int
	Reason string // why, in a person's words
	Fix    string // how to allow it
	Allow  string // the --allow-host argument that would let it through
	// Unreachable: not a refusal but an allowed host that could not be
	// resolved or reached (the client gets 502); OnDeny hears it too, so
	// the run and the coder learn why (proxy_unreachable.go).
	Unreachable bool
}

func (d *Denial) Error() string {
	return fmt.Sprintf("host %s is not allowed: %s", hostKey(d.Host, d.Port), d.Reason)
}

// Line is the one-line text the sandboxed tool gets as the body.
func (d *Denial) Line() string {
	if d.Unreachable {
		return d.unreachableLine()
	}
	return oneLine(fmt.Sprintf("Sentinel's sandbox proxy refused %s: %s. %s",
		net.JoinHostPort(d.Host, fmt.Sprint(d.Port)), strings.TrimSuffix(d.Reason, "."), d.Fix))
}

// Note is the short form for the coder's agent, host and remedy first:
// an agent may show only the start of a long hook message.
func (d *Denial) Note() string {
	if d.Unreachable {
		return d.unreachableLine()
	}
	return oneLine(fmt.Sprintf("Sentinel's proxy refused %s (to allow: --allow-host %s, or approve it when asked): %s",
		net.JoinHostPort(d.Host, fmt.Sprint(d.Port)), d.Allow, d.Reason))
}

// deny makes the Denial for host:port and tells OnDeny about it.
func (p *Proxy) deny(host string, port int, reason string) *Denial {
	return p.denyWith(host, port, reason, false)
}

// denyInternal is deny for a host that resolved to an internal address:
// approving it cannot help, only configuring it explicitly can.
func (p *Proxy) denyInternal(host string, port int, reason string) *Denial {
	return p.denyWith(host, port, reason, true)
}

func (p *Proxy) denyWith(host string, port int, reason string, internal bool) *Denial {
	allow := host
	if port != 80 && port != 443 || internal {
		allow = net.JoinHostPort(host, fmt.Sprint(port))
	}
	fix := fmt.Sprintf("To allow it, approve it when Sentinel asks, or start the run with --allow-host %s (or [sandbox] allow_hosts in .sentinel/config.toml).", allow)
	if internal {
		fix = fmt.Sprintf("Approving cannot open it; only a host allowed explicitly may: start the run with --allow-host %s (or [sandbox] allow_hosts in .sentinel/config.toml).", allow)
	}
	d := &Denial{Host: host, Port: port, Reason: oneLine(reason), Allow: allow, Fix: fix}
	if p.OnDeny != nil {
		p.OnDeny(*d)
	}
	return d
}

// denied answers a refusal: 403 with the reason in DeniedHeader and the body.
func denied(c net.Conn, d *Denial) {
	body := d.Line() + "\n"
	fmt.Fprintf(c, "HTTP/1.1 %d %s\r\n%s: %s\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
		http.StatusForbidden, http.StatusText(http.StatusForbidden), DeniedHeader, oneLine(d.Reason), len(body), body)
}

// oneLine is s through Sentinel's one sanitizer (textsafe.Line: every
// control, bidi or invisible character spelled out, newlines included), so a
// reason carrying a person's message or a host the coder wrote can neither
// split a header nor act on a terminal; it is cut at 1000 bytes.
func oneLine(s string) string {
	s = textsafe.Line(strings.TrimSpace(s))
	if len(s) > 1000 {
		s = strings.ToValidUTF8(s[:1000], "") + "…"
	}
	return s
}

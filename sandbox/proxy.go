package sandbox

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Proxy is the only way out of a sandbox with NetProxy: an HTTP proxy
// (CONNECT and plain HTTP) served on a unix socket. It lets exact allowed
// hosts through, asks its HostAsker about any other host, and never dials
// private, loopback, link-local or metadata addresses unless the host was
// configured explicitly.
type Proxy struct {
	asker HostAsker
	lns   []net.Listener

	mu         sync.Mutex
	configured map[string]bool // host:port or host:* from the profile/config
	remembered map[string]bool // approved at run time (still address-checked)

	// Resolve is how hosts become addresses; tests may replace it.
	Resolve func(ctx context.Context, host string) ([]netip.Addr, error)
	// OnDeny, when set, hears every refusal (before the client does), so
	// the run can journal it. Set it before Serve.
	OnDeny func(Denial)
}

// splitAllowHost parses HOST[:PORT]; a missing port means 80 and 443.
func splitAllowHost(s string) (string, int, error) {
	host, port := s, 0
	if h, p, err := net.SplitHostPort(s); err == nil {
		n, perr := strconv.Atoi(p)
		if perr != nil || n < 1 || n > 65535 {
			return "", 0, fmt.Errorf("allowed host %q: bad port; write HOST or HOST:PORT", s)
		}
		host, port = h, n
	}
	host = strings.ToLower(strings.Trim(host, "[]"))
	if host == "" || strings.ContainsAny(host, "/ @") {
		return "", 0, fmt.Errorf("allowed host %q: not a host name; write HOST or HOST:PORT", s)
	}
	return host, port, nil
}

func hostKey(host string, port int) string { return host + ":" + strconv.Itoa(port) }

// NewProxy makes a proxy that lets the given HOST[:PORT] entries through.
func NewProxy(allow []string, asker HostAsker) (*Proxy, error) {
	p := &Proxy{asker: asker, configured: map[string]bool{}, remembered: map[string]bool{}}
	p.Resolve = func(ctx context.Context, host string) ([]netip.Addr, error) {
		return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	}
	for _, a := range allow {
		host, port, err := splitAllowHost(a)
		if err != nil {
			return nil, err
		}
		if port == 0 {
			p.configured[hostKey(host, 80)] = true
			p.configured[hostKey(host, 443)] = true
		} else {
			p.configured[hostKey(host, port)] = true
		}
	}
	return p, nil
}

// AllowHost remembers host:port for the rest of the run (the person chose
// "remember" on an approval). Remembered hosts are still address-checked.
func (p *Proxy) AllowHost(host string, port int) {
	p.mu.Lock()
	p.remembered[hostKey(strings.ToLower(host), port)] = true
	p.mu.Unlock()
}

// Serve accepts connections on ln until it is closed.
func (p *Proxy) Serve(ln net.Listener) {
	p.mu.Lock()
	p.lns = append(p.lns, ln)
	p.mu.Unlock()
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go p.serveConn(c)
	}
}

// Close stops accepting connections.
func (p *Proxy) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, ln := range p.lns {
		ln.Close()
	}
	return nil
}

func (p *Proxy) serveConn(c net.Conn) {
	defer c.Close()
	br := bufio.NewReader(c)
	for {
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		if req.Method == http.MethodConnect {
			p.tunnel(c, br, req)
			return
		}
		if !p.forward(c, br, req) {
			return
		}
	}
}

func refuse(c net.Conn, code int, why string) {
	body := "sentinel proxy: " + why + "\n"
	fmt.Fprintf(c, "HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
		code, http.StatusText(code), len(body), body)
}

// answerDialErr answers a failed dial: 403 with Sentinel's reason when the
// proxy refused the host (a *Denial), 502 Bad Gateway with the dial error
// when an allowed host could not be reached.
func answerDialErr(c net.Conn, err error) {
	var d *Denial
	if errors.As(err, &d) {
		denied(c, d)
		return
	}
	refuse(c, http.StatusBadGateway, err.Error())
}

// dial decides whether host:port may be reached and, if so, connects to a
// checked address. The error text goes back to the sandboxed client.
func (p *Proxy) dial(ctx context.Context, host string, port int) (net.Conn, error) {
	host = strings.ToLower(strings.Trim(host, "[]"))
	key := hostKey(host, port)
	p.mu.Lock()
	configured, remembered := p.configured[key], p.remembered[key]
	p.mu.Unlock()
	if !configured && !remembered {
		if p.asker == nil {
			return nil, p.deny(host, port, "it is not on this run's allowed hosts")
		}
		ok, reason := p.asker(ctx, host, port)
		if !ok {
			if reason == "" {
				reason = "denied"
			}
			return nil, p.deny(host, port, reason)
		}
	}
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{a}
	} else {
		rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		addrs, err = p.Resolve(rctx, host)
		if err != nil || len(addrs) == 0 {
			if err == nil {
				err = errors.New("no addresses")
			}
			return nil, p.unreachable(host, port, fmt.Errorf("cannot resolve %s: %v", host, err))
		}
	}
	var lastErr error
	for _, a := range addrs {
		a = a.Unmap()
		if !configured && internalAddr(a) {
			lastErr = p.denyInternal(host, port, fmt.Sprintf("it resolves to internal address %s, which only an explicitly allowed host may reach", a))
			continue
		}
		d := net.Dialer{Timeout: 15 * time.Second}
		c, err := d.DialContext(ctx, "tcp", net.JoinHostPort(a.String(), strconv.Itoa(port)))
		if err == nil {
			return c, nil
		}
		lastErr = fmt.Errorf("cannot reach %s (%s): %v", key, a, err)
	}
	if _, refused := lastErr.(*Denial); lastErr != nil && !refused {
		return nil, p.unreachable(host, port, lastErr)
	}
	return nil, lastErr
}

var cgnat = netip.MustParsePrefix("100.64.0.0/10")
var ec2v6 = netip.MustParseAddr("fd00:ec2::254")

// internalAddr is true for addresses a sandbox must not reach unasked:
// loopback, private, link-local (cloud metadata), CGNAT, multicast, unspecified.
func internalAddr(a netip.Addr) bool {
	return a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsInterfaceLocalMulticast() || a.IsMulticast() || a.IsUnspecified() || cgnat.Contains(a) || a == ec2v6
}

func splitTarget(hostport string, defPort int) (string, int, error) {
	h, ps, err := net.SplitHostPort(hostport)
	if err != nil {
		if defPort == 0 {
			return "", 0, err
		}
		return hostport, defPort, nil
	}
	n, err := strconv.Atoi(ps)
	if err != nil || n < 1 || n > 65535 {
		return "", 0, fmt.Errorf("bad port in %q", hostport)
	}
	return h, n, nil
}

func (p *Proxy) tunnel(c net.Conn, br *bufio.Reader, req *http.Request) {
	host, port, err := splitTarget(req.Host, 0)
	if err != nil {
		refuse(c, http.StatusBadRequest, "CONNECT needs host:port")
		return
	}
	ctx, connected := whileConnected(c, br)
	up, err := p.dial(ctx, host, port)
	connected()
	if err != nil {
		answerDialErr(c, err)
		return
	}
	defer up.Close()
	if _, err := io.WriteString(c, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
		return
	}
	splice(c, br, up)
}

// splice copies both ways until either side ends.
func splice(c net.Conn, br *bufio.Reader, up net.Conn) {
	done := make(chan struct{}, 2)
	go func() {
		io.Copy(up, br)
		if cw, ok := up.(interface{ CloseWrite() error }); ok {
			cw.CloseWrite()
		}
		done <- struct{}{}
	}()
	go func() {
		io.Copy(c, up)
		if cw, ok := c.(interface{ CloseWrite() error }); ok {
			cw.CloseWrite()
		}
		done <- struct{}{}
	}()
	<-done
	<-done
}

// forward relays one plain-HTTP request; it reports whether the client
// connection may carry another one.
func (p *Proxy) forward(c net.Conn, br *bufio.Reader, req *http.Request) bool {
	if req.URL.Scheme != "http" || req.URL.Host == "" {
		refuse(c, http.StatusBadRequest, "only absolute http:// URLs and CONNECT are proxied")
		return false
	}
	host, port, err := splitTarget(req.URL.Host, 80)
	if err != nil {
		refuse(c, http.StatusBadRequest, err.Error())
		return false
	}
	ctx, connected := whileConnected(c, br)
	up, err := p.dial(ctx, host, port)
	connected()
	if err != nil {
		answerDialErr(c, err)
		return false
	}
	defer up.Close()
	req.Header.Del("Proxy-Connection")
	req.Header.Del("Proxy-Authorization")
	req.RequestURI = ""
	req.Close = true
	if err := req.Write(up); err != nil {
		refuse(c, http.StatusBadGateway, err.Error())
		return false
	}
	resp, err := http.ReadResponse(bufio.NewReader(up), req)
	if err != nil {
		refuse(c, http.StatusBadGateway, err.Error())
		return false
	}
	defer resp.Body.Close()
	resp.Close = true
	// Response.Write copies the body straight to the connection, so
	// streamed responses (server-sent events) arrive as they are produced.
	resp.Write(c)
	return false
}

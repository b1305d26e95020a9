package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The upload tool's URL fetcher is the one place this server opens a
// connection a client chose, so it is guarded where the connection is
// made, not where the URL is read: a net.Dialer Control hook sees the
// address the socket is about to connect to — after DNS, for every address
// tried, for the first request and after every redirect — and refuses
// anything that is not a public unicast address. A name that resolves to
// loopback, a rebinding DNS answer, or a redirect to the metadata service
// all end at that hook. Before it, URLs are held to http(s) with no
// credentials, and a host written as a number in any form other than
// dotted decimal (2130706433, 0x7f.1, 0177.0.0.1) is refused outright:
// other software reads those as addresses, so they are never sent to DNS.

// maxRedirects is how many redirects one fetch follows.
const maxRedirects = 5

// fetcher fetches one URL through the guard.
type fetcher struct {
	max     int64
	timeout time.Duration
	// resolver resolves names (nil: the system's); tests point it at a
	// fake DNS server on loopback.
	resolver *net.Resolver
	// allow lets a test reach its own loopback server; nil in the product.
	allow func(netip.AddrPort) bool
	// afterGuard is called for each address the guard passed, just before
	// the connect; tests refuse there anything but loopback, so a broken
	// guard fails a test without reaching another machine.
	afterGuard func(netip.AddrPort) error
}

// blockedPrefixes are special-purpose ranges the netip predicates do not
// name, each one a way to reach this host, its network or the cloud
// provider's services, or an address that embeds one.
var blockedPrefixes = sync.OnceValue(func() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{
		"0.0.0.0/8",       // this network
		"100.64.0.0/10",   // shared address space (CGNAT; some clouds' metadata)
		"192.0.0.0/24",    // IETF protocol assignments
		"192.0.2.0/24",    // documentation
		"198.18.0.0/15",   // benchmarking
		"198.51.100.0/24", // documentation
		"203.0.113.0/24",  // documentation
		"240.0.0.0/4",     // reserved, and the broadcast address
		"64:ff9b::/96",    // NAT64: embeds an IPv4 address
		"64:ff9b:1::/48",  // local NAT64
		"100::/64",        // discard
		"2001::/32",       // Teredo: embeds an IPv4 address
		"2001:db8::/32",   // documentation
		"2002::/16",       // 6to4: embeds an IPv4 address
		"fec0::/10",       // site-local (deprecated, still routed on some networks)
		"::/96",           // IPv4-compatible (deprecated)
	} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
})

// publicAddr says why a is not a public unicast address, or "" when it is.
func publicAddr(a netip.Addr) string {
	a = a.Unmap()
	switch {
	case !a.IsValid():
		return "no address"
	case a.Zone() != "":
		return "an address with a zone"
	case a.IsLoopback():
		return "a loopback address"
	case a.IsUnspecified():
		return "the unspecified address"
	case a.IsPrivate():
		return "a private address"
	case a.IsLinkLocalUnicast():
		return "a link-local address (the cloud metadata service lives here)"
	case a.IsMulticast(), a.IsLinkLocalMulticast(), a.IsInterfaceLocalMulticast():
		return "a multicast address"
	case !a.IsGlobalUnicast():
		return "not a unicast address"
	}
	for _, p := range blockedPrefixes() {
		if p.Contains(a) {
			return "a special-purpose address (" + p.String() + ")"
		}
	}
	return ""
}

// urlRefusal is the refusal for a URL the guard will not fetch.
func urlRefusal(what, why string) *Refusal {
	return &Refusal{Class: ClassURLNotAllowed, Rule: "upload_file url", Reason: what + ": " + why,
		Use: "give an http(s) URL on a public host, or send the content as content_base64"}
}

// control is the dialer's hook: it runs after DNS, before connect(2), for
// every address a connection tries.
func (f *fetcher) control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return urlRefusal("connect to "+address, "not an address the guard can check")
	}
	if f.allow == nil || !f.allow(ap) {
		if why := publicAddr(ap.Addr()); why != "" {
			return urlRefusal("connect to "+ap.Addr().String(), why)
		}
	}
	if f.afterGuard != nil {
		return f.afterGuard(ap)
	}
	return nil
}

// checkURL holds u to http(s), no credentials, and a host that is a name
// or an address in its usual spelling.
func (f *fetcher) checkURL(u *url.URL) error {
	shown := u.Redacted()
	if u.Scheme != "http" && u.Scheme != "https" {
		return urlRefusal(shown, "only http and https URLs are fetched")
	}
	if u.User != nil {
		return urlRefusal(shown, "a URL with credentials in it")
	}
	host := u.Hostname()
	if host == "" {
		return urlRefusal(shown, "no host")
	}
	if a, err := netip.ParseAddr(host); err == nil {
		if f.allow != nil && f.allow(netip.AddrPortFrom(a, urlPort(u))) {
			return nil
		}
		if why := publicAddr(a); why != "" {
			return urlRefusal(shown, why)
		}
		return nil
	}
	if numericHost(host) {
		return urlRefusal(shown, "a host written as a number in a form other than dotted decimal (other software reads it as an address)")
	}
	return nil
}

// urlPort is u's port, or its scheme's.
func urlPort(u *url.URL) uint16 {
	if p, err := strconv.ParseUint(u.Port(), 10, 16); err == nil {
		return uint16(p)
	}
	if u.Scheme == "https" {
		return 443
	}
	return 80
}

// numericHost says whether host's last label is a number (decimal, octal
// or 0x hex), as the URL standard and inet_aton read it: such a host is an
// IPv4 address to them, never a name.
func numericHost(host string) bool {
	labels := strings.Split(strings.TrimSuffix(host, "."), ".")
	last := strings.ToLower(labels[len(labels)-1])
	if last == "" {
		return false
	}
	if strings.HasPrefix(last, "0x") {
		return strings.Trim(last[2:], "0123456789abcdef") == ""
	}
	return strings.Trim(last, "0123456789") == ""
}

// fetch gets raw's body, at most f.max bytes, through the guard.
func (f *fetcher) fetch(ctx context.Context, raw string) ([]byte, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, &Refusal{Class: ClassBadInput, Rule: "upload_file url", Reason: "url: " + err.Error(), Use: "give an http(s) URL"}
	}
	if err := f.checkURL(u); err != nil {
		return nil, err
	}
	dialer := &net.Dialer{Resolver: f.resolver, Control: f.control, Timeout: f.timeout}
	client := &http.Client{
		Transport: &http.Transport{
			Proxy:                  nil, // a proxy would be the address dialled, not the URL's host
			DialContext:            dialer.DialContext,
			DisableKeepAlives:      true,
			TLSHandshakeTimeout:    f.timeout,
			ResponseHeaderTimeout:  f.timeout,
			MaxResponseHeaderBytes: 64 << 10,
		},
		Timeout: f.timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > maxRedirects {
				return urlRefusal(raw, fmt.Sprintf("more than %d redirects", maxRedirects))
			}
			return f.checkURL(req.URL)
		},
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, &Refusal{Class: ClassBadInput, Rule: "upload_file url", Reason: "url: " + err.Error(), Use: "give an http(s) URL"}
	}
	resp, err := client.Do(req)
	if err != nil {
		var r *Refusal
		if errors.As(err, &r) {
			return nil, r
		}
		return nil, fmt.Errorf("fetch %s: %w", u.Redacted(), err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetch %s: the server answered %s (nothing written)", u.Redacted(), resp.Status)
	}
	if resp.ContentLength > f.max {
		return nil, uploadTooBig(resp.ContentLength, f.max)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, f.max+1))
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w (nothing written)", u.Redacted(), err)
	}
	if int64(len(data)) > f.max {
		return nil, uploadTooBig(-1, f.max)
	}
	return data, nil
}

func uploadTooBig(n, max int64) *Refusal {
	size := "more than that"
	if n >= 0 {
		size = fmt.Sprintf("%d bytes", n)
	}
	return &Refusal{Class: ClassLimit, Rule: "limits.max_upload_bytes", Reason: fmt.Sprintf("the upload is over max_upload_bytes (%d): %s; nothing written", max, size), Use: "ask the person to raise [limits] max_upload_bytes"}
}

package runner

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"syscall"
	"time"

	"github.com/sentinelhq/sentinel/internal/agentutil"
	"github.com/sentinelhq/sentinel/runner/agents"
	"github.com/sentinelhq/sentinel/runner/coder"
)

// modelCoder is an adapter whose coder talks to a model over the network
// (claude, codex), or an agent another adapter hosts whose entry says how
// its model is checked (Gemini CLI, opencode over ACP): coder.Model.
type modelCoder = coder.Model

// reachTimeout bounds the endpoint check: a dead host fails in seconds.
const reachTimeout = 3 * time.Second

// preflightModel checks a, when it talks to a model: its sign-in, then its
// endpoint: reachable, and its API's when the coder says how to tell it
// (coder.Probing; probeAPI), so an endpoint answering 404 is refused too. say, when set, is told of the endpoint check as it
// starts (it may take up to reachTimeout).
func preflightModel(ctx context.Context, a Adapter, say func(string)) error {
	name := a.Name()
	m, ok := a.(modelCoder)
	if h, hosting := a.(coder.Hosting); hosting {
		argv := h.Hosted()
		if ag, at := agents.Of(argv); ag != nil && ag.HostedModel != nil {
			m, ok, name = ag.HostedModel(argv[at:]), true, ag.Name
		}
	}
	if !ok {
		return nil
	}
	if err := m.SignIn(); err != nil {
		return err
	}
	base, fix, err := m.ModelEndpoint()
	if err != nil || base == "" {
		return err
	}
	if say != nil {
		say(fmt.Sprintf("preflight: coder %s: checking that its model endpoint %s answers (up to %s)", name, base, reachTimeout))
	}
	var probe coder.Probe
	if p, ok := m.(coder.Probing); ok {
		probe = p.ModelProbe()
	}
	err = probeAPI(ctx, base, probe, reachTimeout)
	var other notTheAPI
	switch {
	case errors.As(err, &other):
		return fmt.Errorf("coder %s: its model endpoint %s %v (%s)", name, base, err, fix)
	case err != nil:
		return fmt.Errorf("coder %s: its model endpoint %s is not reachable: %v (%s)", name, base, err, fix)
	}
	return nil
}

// reachable is nil when base answers within timeout: for an http(s) URL,
// any HTTP answer to a HEAD (a certificate the host does not trust counts:
// the coder has its own CA settings); else a TCP connect to its host and
// port. The error says what failed, in a few words.
func reachable(ctx context.Context, base string, timeout time.Duration) error {
	u, err := url.Parse(base)
	hostPort, ok := agentutil.URLHostPort(base)
	if err != nil || !ok {
		return errors.New("it is not a URL with a host")
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if u.Scheme != "http" && u.Scheme != "https" {
		c, err := (&net.Dialer{}).DialContext(ctx, "tcp", hostPort)
		if err != nil {
			return reachError(err, timeout)
		}
		return c.Close()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, base, nil)
	if err != nil {
		return errors.New("it is not a URL with a host")
	}
	// Directly, as Sentinel's proxy reaches it for the coder.
	tr := &http.Transport{Proxy: nil, DisableKeepAlives: true}
	defer tr.CloseIdleConnections()
	resp, err := (&http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}).Do(req)
	if err != nil {
		return reachError(err, timeout)
	}
	return resp.Body.Close()
}

// reachError is why a connection failed, in a few words; a TLS answer
// (certificate not trusted here) is no failure.
func reachError(err error, timeout time.Duration) error {
	var dns *net.DNSError
	var cert *tls.CertificateVerificationError
	var unknown x509.UnknownAuthorityError
	var hostname x509.HostnameError
	switch {
	case errors.As(err, &cert), errors.As(err, &unknown), errors.As(err, &hostname):
		return nil
	case errors.As(err, &dns):
		return fmt.Errorf("its host %s does not resolve", dns.Name)
	case errors.Is(err, syscall.ECONNREFUSED):
		return errors.New("connection refused")
	case errors.Is(err, context.DeadlineExceeded), isTimeout(err):
		return fmt.Errorf("no answer within %s", timeout)
	}
	if ue := (*url.Error)(nil); errors.As(err, &ue) {
		return ue.Err // the URL is in the line already
	}
	return err
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

package approvals

import (
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/policy"
)

// ProxyAdapter is the Adapter of the requests the sandbox's proxy asks: a
// connection to a host the sandbox does not already let through.
const ProxyAdapter = "proxy"

// HostGrantTTL is how long an allowed network request of the coder's own
// tool (a WebFetch, say) also lets the sandbox's proxy through to that
// host: the tool's connection is then not asked about a second time.
const HostGrantTTL = 2 * time.Minute

// grantHostToProxy follows an allowed network request of the coder's own
// tool with a run-scope host template that covers only the proxy's asks
// for that host and port, for HostGrantTTL: the same templates and the
// same chain as every other remembered approval (Judge), never a list of
// its own. A later allowed request for the host renews the template
// rather than adding another. The proxy's own asks grant nothing.
func (b *Broker) grantHostToProxy(req Request, d Decision) {
	if !d.Allowed() || req.Kind != policy.KindNet || req.Adapter == ProxyAdapter || b.cfg.Templates == nil {
		return
	}
	host, port := req.HostPort()
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if host == "" {
		return
	}
	if port == 0 {
		port = 443
	}
	m := Match{Host: net.JoinHostPort(host, strconv.Itoa(port))}
	t, added, err := b.cfg.Templates.grantToProxy(m, HostGrantTTL, Origin{Run: b.cfg.RunID, Request: req.Summary()})
	if err != nil {
		b.journal(journal.System, KindTemplateError, "could not let the proxy through to "+m.Host+" for the approved tool call: "+err.Error(), nil)
		return
	}
	if added {
		b.journal(journal.Approval, KindTemplateAdded, fmt.Sprintf("remembered “%s” as %s (%s, %s scope, %s after each approved tool call for it)",
			t.Name(), t.ID, t.Match, t.Scope, HostGrantTTL), t)
	}
}

// grantToProxy adds a run-scope template for m that covers the proxy's
// asks only, expiring ttl from now, or renews the one there is. It
// reports whether it added one.
func (s *TemplateSet) grantToProxy(m Match, ttl time.Duration, from Origin) (Template, bool, error) {
	if err := m.Validate(); err != nil {
		return Template{}, false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now().UTC()
	if t := s.proxyHosts[m.Host]; t != nil {
		t.Expires = now.Add(ttl)
		return *t, false, nil
	}
	t := newTemplate(ScopeRun, m, now.Truncate(time.Second), from)
	t.ProxyOnly, t.Expires = true, now.Add(ttl)
	s.addRunLocked(t)
	return *t, true, nil
}

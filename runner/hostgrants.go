package runner

import (
	"github.com/sentinelhq/sentinel/internal/agentutil"

	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/policy"
	"github.com/sentinelhq/sentinel/sandbox"
)

// hostGrantTTL is how long a network request the coder's own tool call got
// approved also lets the proxy through to that host, so one fetch is not
// asked about twice (once by the agent's hook, once by the proxy).
const hostGrantTTL = 2 * time.Minute

// hostGrants remembers hosts whose net requests were just allowed.
type hostGrants struct {
	mu     sync.Mutex
	until  map[string]time.Time // host:port → expiry
	now    func() time.Time
	reqs   map[string]string // request id → host:port, for requests not from the proxy
	events <-chan journal.Event
}

func (g *hostGrants) allowed(host string, port int) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	exp, ok := g.until[net.JoinHostPort(strings.ToLower(host), strconv.Itoa(port))]
	return ok && g.now().Before(exp)
}

// follow watches the journal for allowed net requests until it closes.
func (g *hostGrants) follow() {
	for ev := range g.events {
		if m, ok := approvals.AsRequest(ev); ok {
			if m.Kind == policy.KindNet && m.Adapter != "proxy" {
				if hp := hostPort(m.Host, m.Port, m.URL); hp != "" {
					g.reqs[m.ID] = hp
				}
			}
		} else if d, ok := approvals.AsDecision(ev); ok {
			hp, ok := g.reqs[d.RequestID]
			delete(g.reqs, d.RequestID)
			if ok && d.Allowed() {
				g.mu.Lock()
				g.until[hp] = g.now().Add(hostGrantTTL)
				g.mu.Unlock()
			}
		}
	}
}

// hostPort is the host:port a net request names, from its fields or URL.
func hostPort(host string, port int, raw string) string {
	if host == "" && raw != "" {
		hp, _ := agentutil.URLHostPort(raw)
		return hp
	}
	if host == "" {
		return ""
	}
	if port == 0 {
		port = 443
	}
	return net.JoinHostPort(strings.ToLower(host), strconv.Itoa(port))
}

// followHostGrants follows j's decisions until it closes.
func followHostGrants(j *journal.Journal) *hostGrants {
	events, _ := j.SubscribeWhere(64, true, notCoderOutput) // ends when the journal closes
	g := &hostGrants{until: map[string]time.Time{}, reqs: map[string]string{}, now: time.Now, events: events}
	go g.follow()
	return g
}

// coveredByToolCall reports, and journals with emit, a proxy connection
// that a just-approved tool call already covers.
func (g *hostGrants) coveredByToolCall(host string, port int, emit func(journal.Lane, journal.Kind, string, any)) bool {
	if g == nil || !g.allowed(host, port) {
		return false
	}
	emit(journal.Tool, KindNet, fmt.Sprintf("proxy: %s:%d let through (the tool call for it was approved moments ago)", host, port),
		NetNote{Host: host, Port: port})
	return true
}

// proxyDenied journals a host the sandbox's proxy refused and queues its
// reason for the coder's agent: the tool that met the refusal got only a
// 403 (its body and X-Sentinel-Denied header name the reason, but most
// tools do not show them), so a hook-based agent is also told with the
// tool's result, the way a policy deny reaches it.
func (r *containment) proxyDenied(d sandbox.Denial) {
	r.emit(journal.Tool, KindNetDenied, "proxy: "+d.Line(),
		NetDeniedNote{Host: d.Host, Port: d.Port, Reason: d.Reason, Unreachable: d.Unreachable})
	if r.broker != nil {
		r.broker.NoteForCoder(d.Note())
	}
}

// execDenied journals a program the sandbox refused to run because it is
// in [service] denied_executables (tool lane: the coder's action).
func (r *containment) execDenied(d sandbox.ExecDenial) {
	r.emit(journal.Tool, KindExecDenied, "sandbox: "+d.Line(),
		ExecDeniedNote{Entry: d.Entry, Path: d.Path, File: d.File, Copy: d.Copy})
}

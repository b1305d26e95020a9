package policy

import (
	"net"
	"strconv"
	"strings"
)

// RuleNetRunHost allows a net request for a host this run's sandbox proxy
// lets through without asking (--allow-host, [sandbox] allow_hosts, the
// agent's own model host): the policy agrees with the sandbox, so a tool
// call for such a host (Claude Code's WebFetch) is not asked about and then
// let through anyway, nor denied while the proxy would pass it.
const RuleNetRunHost = "net.run-host"

// runHost reports whether host:port is one of ctx.AllowHosts. An entry
// without a port covers 80 and 443 (as the proxy reads it); a request
// without a port is taken as https.
func runHost(allow []string, host string, port int) bool {
	if port == 0 {
		port = 443
	}
	for _, a := range allow {
		h, p := a, 0
		if hh, ps, err := net.SplitHostPort(a); err == nil {
			n, err := strconv.Atoi(ps)
			if err != nil {
				continue
			}
			h, p = hh, n
		}
		if normHost(h) != host {
			continue
		}
		if p == port || p == 0 && (port == 80 || port == 443) {
			return true
		}
	}
	return false
}

// runHostFinding turns the built-in "new host" ask into an allow for a host
// of the run's allow list. Anything else (a deny, a user rule's ask) stands.
func runHostFinding(f finding, allow []string, host string, port int) finding {
	if f.d != Ask || f.rule != RuleNetNewHost || !runHost(allow, host, port) {
		return f
	}
	return finding{Allow, RuleNetRunHost, "the host " + strings.TrimSpace(host) + " is allowed for this run (--allow-host or [sandbox] allow_hosts)"}
}

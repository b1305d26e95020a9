package sandbox

import (
	"fmt"
	"net"
)

// unreachable tells OnDeny that an allowed host could not be resolved or
// reached, and returns err for the client's 502: npm or pip print only
// "No matching distribution found", so the run's lanes and the coder's
// next tool result carry Sentinel's own line instead.
func (p *Proxy) unreachable(host string, port int, err error) error {
	if p.OnDeny != nil {
		p.OnDeny(Denial{Host: host, Port: port, Reason: oneLine(err.Error()), Unreachable: true,
			Fix: "It is allowed; check the host name and that it answers from this machine."})
	}
	return err
}

// unreachableLine is an unreachable host's line for the lanes and the
// coder.
func (d *Denial) unreachableLine() string {
	return oneLine(fmt.Sprintf("Sentinel's sandbox proxy could not reach %s (the host is allowed): %s. %s",
		net.JoinHostPort(d.Host, fmt.Sprint(d.Port)), d.Reason, d.Fix))
}

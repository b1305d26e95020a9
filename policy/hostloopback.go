package policy

import (
	"net/url"
	"strings"
)

// With the sandbox off (and in place, where sentinel exec and mcp share
// the host's network) the loopback is the person's own machine: beside the
// dev server the coder started it holds the person's local services. A
// read of a loopback page (curl -s localhost:3000/health, wget -qO- …) or
// a port probe (nc -z localhost 5432) is what a person runs there every
// day, and nothing leaves the machine, so those are allowed as inside the
// sandbox. A request that sends data (a POST with -d) changes a service the
// workspace does not own and asks, and so does any request to the port of
// a local control plane, whose reads alone hand over what `docker inspect`
// or `kubectl get secret` would: the Docker and containerd APIs, etcd, the
// Kubernetes API and kubelet, kubectl proxy, Vault, Consul and Nomad.
//
// Shapes: `curl -sf http://localhost:8080/healthz`, `curl -sI
// http://127.0.0.1:8000/ | head -1`, `curl -i http://[::1]:8000/`
// (framework READMEs and agent transcripts, polcorp7/8, heldout2/3).

// controlPlanePorts are loopback ports whose reads are not a page.
var controlPlanePorts = wordSet{words: []string{"2375", "2376", "2379", "2380", "6443", "8001", "10250", "10255", "8200", "8500", "4646"}}

// hostLoopbackRead reports whether a loopback read already found by
// localGet or wgetLocalGet may run without the sandbox: it sends no data
// and names no control-plane port.
func hostLoopbackRead(args []word) bool {
	if sendsData(args) {
		return false
	}
	for _, a := range args {
		v := a.val
		if strings.HasPrefix(v, "-") || !loopbackURL(v) {
			continue
		}
		if !strings.Contains(v, "://") {
			v = "http://" + v
		}
		u, err := url.Parse(v)
		if err != nil || controlPlanePorts.has(u.Port()) {
			return false
		}
	}
	return true
}

// loopbackWhere names the loopback the reason speaks of.
func (x *cmdCtx) loopbackWhere() string {
	if x.c.inPlace {
		return "this machine's loopback"
	}
	if x.c.sandbox {
		return "the sandbox's own loopback"
	}
	return "this machine's loopback (the sandbox is off)"
}

// personsLoopback reports whether the loopback is the person's machine:
// with the sandbox off, or in place (sentinel exec and mcp share the
// host's network).
func (x *cmdCtx) personsLoopback() bool { return !x.c.sandbox || x.c.inPlace }

var httpieName = wordSet{words: []string{"http", "https", "xh"}}

// httpieControlPlane reports whether an httpie GET (already read by
// localClientProbe) names a control-plane port, as :PORT/path or a URL.
func httpieControlPlane(args []word) bool {
	for _, a := range args {
		v := a.val
		if strings.HasPrefix(v, ":") {
			v = "http://localhost" + v
		} else if !loopbackURL(v) || strings.HasPrefix(v, "-") {
			continue
		} else if !strings.Contains(v, "://") {
			v = "http://" + v
		}
		if u, err := url.Parse(v); err != nil || controlPlanePorts.has(u.Port()) {
			return true
		}
	}
	return false
}

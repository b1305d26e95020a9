package runner

import (
	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/sandbox"
)

// sandboxSees is the broker's question whether the coder's sandbox shows a
// path (approvals.BrokerConfig.Sees): the profile the sandbox enforces
// answers. Before the sandbox is prepared, or with --sandbox off, every
// path is there and the policy alone decides.
func (r *containment) sandboxSees(path string, write bool) bool {
	p := r.seen.Load()
	if p == nil {
		return true
	}
	return p.Sees(path, write)
}

// sandboxInside is the rest the broker asks of the coder's sandbox
// (approvals.BrokerConfig.Inside): the environment its processes get and
// whether it has a network; false before the sandbox is prepared or with
// --sandbox off.
func (r *containment) sandboxInside() (approvals.Inside, bool) {
	in := r.inside.Load()
	if in == nil {
		return approvals.Inside{}, false
	}
	return *in, true
}

// noteSandbox records the enforced profile for sandboxSees and
// sandboxInside.
func (r *containment) noteSandbox(sb *sandbox.Sandbox) {
	if sb == nil || sb.Mode() == sandbox.ModeOff {
		return
	}
	p := sb.Profile()
	r.seen.Store(&p)
	r.inside.Store(&approvals.Inside{Env: sb.Environ(), Offline: p.Net == sandbox.NetNone})
}

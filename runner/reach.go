package runner

import (
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

// noteSandbox records the enforced profile for sandboxSees.
func (r *containment) noteSandbox(sb *sandbox.Sandbox) {
	if sb == nil || sb.Mode() == sandbox.ModeOff {
		return
	}
	p := sb.Profile()
	r.seen.Store(&p)
}

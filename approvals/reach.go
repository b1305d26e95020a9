package approvals

import (
	"github.com/sentinelhq/sentinel/policy"
)

// An approval must be able to take effect. A file tool's request for a
// path the coder's sandbox does not show (the home directory, a hidden
// credential place) cannot be helped by approving it: the tool would run
// inside the sandbox and find nothing ("File does not exist"). Such a
// request is not offered to anyone; it is denied at once with that reason,
// so the person is not asked a question whose yes means nothing and the
// coder learns why.

// sandboxHides is the reason given for such a request.
func sandboxHides(path string) string {
	return "the sandbox hides this path; approving cannot give access (" + path + " is not in the coder's sandbox, which shows only the workspace, system locations and the toolchains and paths it lists; add it to [sandbox] readable in your config to show it)"
}

// outOfReach answers a read, write or edit of a path BrokerConfig.Sees says
// the sandbox does not show. A policy deny keeps its own reason.
func (b *Broker) outOfReach(req Request, v policy.Verdict) (Decision, bool) {
	if b.cfg.Sees == nil || v.Decision == policy.Deny {
		return Decision{}, false
	}
	switch req.Kind {
	case policy.KindRead, policy.KindWrite, policy.KindEdit:
	default:
		return Decision{}, false
	}
	p := requestPath(req, b.cfg.Context)
	write := req.Kind != policy.KindRead
	if p == "" || b.cfg.Sees(p, write) {
		return Decision{}, false
	}
	if write && b.cfg.Sees(p, false) {
		return denyBy("sandbox", sandboxReadOnly(p)), true
	}
	return denyBy("sandbox", sandboxHides(p)), true
}

// sandboxReadOnly is the reason given for a write the sandbox shows but
// keeps from the coder's tools.
func sandboxReadOnly(path string) string {
	return "the sandbox keeps this path from the coder's tools; approving cannot make it writable (" + path + " is read-only to them: a protected file, Sentinel's own state, or the agent's own transcripts and sessions, which only the agent writes)"
}

package approvals

import (
	"github.com/sentinelhq/sentinel/policy"
)

// What only a person may approve because it cannot be taken back, or runs
// later on the host, is never remembered beyond the run it was asked in: a
// secret read into a coder's context (cat .env), a write to a file that
// runs code later (.envrc, a workflow, a shell rc). Remembered for a
// project or for every project, one press would let every later run do it
// unasked — a content-blind `.envrc` grant let the next unattended run
// write `eval "$(curl …)"` (issue 37.1). A network host the person approves
// is theirs to remember: it is the same host next time.

// personOnlyRules are the rules whose requests are remembered for the run
// at most, with what the card and the queue say about it.
var personOnlyRules = map[string]string{
	policy.RulePathReadSecret: "it reads a file that usually holds secrets",
	policy.RulePathWriteLater: "it writes a file that runs code later",
}

// RememberLimit is the broadest scope a grant for a request with verdict v
// may be remembered in, and why when that is narrower than the user scope
// ("" otherwise). Every part of a compound command counts.
func RememberLimit(v policy.Verdict) (Scope, string) {
	if why, ok := personOnlyRules[v.Rule]; ok {
		return ScopeRun, why
	}
	for _, p := range v.Parts {
		if why, ok := personOnlyRules[p.Rule]; ok {
			return ScopeRun, why
		}
	}
	return ScopeUser, ""
}

// LimitGrant is g held to RememberLimit(v), and, when it was narrowed, the
// sentence that says so.
func LimitGrant(g GrantSpec, v policy.Verdict) (GrantSpec, string) {
	max, why := RememberLimit(v)
	if why == "" || scopeRank(g.Scope) <= scopeRank(max) {
		return g, ""
	}
	asked := g.Scope
	g.Scope = max
	return g, "remembered for this run only, not in the " + string(asked) + " scope asked for: " + why + ", which only a person may approve, each run anew"
}

// scopeRank orders scopes narrowest first; an unknown scope ranks broadest.
func scopeRank(s Scope) int {
	switch s {
	case ScopeRun:
		return 0
	case ScopeProject:
		return 1
	}
	return 2
}

package approvals

import (
	"path/filepath"
	"strings"

	"github.com/sentinelhq/sentinel/policy"
)

// What only a person may approve because it cannot be taken back, or runs
// later on the host, is never remembered beyond the run it was asked in: a
// secret read into a coder's context (cat .env), a write to a file that
// runs code later (.envrc, a workflow, a shell rc). Remembered for a
// project or for every project, one press would let every later run do it
// unasked — a content-blind `.envrc` grant let the next unattended run
// write `eval "$(curl …)"` (issue 37.1). A push is the same: what it does to
// the remote cannot be taken back, so a person says yes to `git push` each
// run. And so is everything else the policy asks of a person only
// (policy.Verdict.NeverDelegable: a new network host, a command that talks
// to the network): a card that says "only a person may approve" must not
// make a grant that lets every later run do it unasked (#37 F1).

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
		if p.Rule == policy.RuleGitNetwork && gitSubcommand(p.Argv) == "push" {
			return ScopeRun, "it pushes to a remote, which cannot be taken back"
		}
	}
	if v.NeverDelegable {
		switch {
		case v.Rule == policy.RuleNetNewHost:
			return ScopeRun, "it reaches a network host no rule allows"
		case strings.HasPrefix(v.Rule, "net.") || strings.HasPrefix(v.Rule, "git.") || strings.HasPrefix(v.Rule, "cloud."):
			return ScopeRun, "it talks to the network"
		}
		return ScopeRun, "the policy asks a person for it"
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

// gitSubcommand is the subcommand of a git argv ("" when argv is not git's):
// the first word after git's own options, skipping the values of -C, -c,
// --git-dir and --work-tree.
func gitSubcommand(argv []string) string {
	if len(argv) == 0 || filepath.Base(argv[0]) != "git" {
		return ""
	}
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "-C" || a == "-c" || a == "--git-dir" || a == "--work-tree" || a == "--namespace":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return ""
}

// RememberedFor says where and how long g holds, as the decision's reason
// and the reports (DECISIONS.md) tell it: "for this run only", "in this
// project, for 8h", "for every project of yours".
func RememberedFor(g GrantSpec) string {
	s := map[Scope]string{ScopeRun: "for this run only", ScopeProject: "in this project", ScopeUser: "for every project of yours"}[g.Scope]
	if s == "" {
		s = "in the " + string(g.Scope) + " scope"
	}
	if g.Expires > 0 && g.Scope != ScopeRun {
		s += ", for " + g.Expires.String()
	}
	return "(" + s + ")"
}

package approvals

import (
	"fmt"
	"strings"

	"github.com/sentinelhq/sentinel/policy"
)

// unanswered is the deny for a request the policy asked about and nobody
// answered (no person or model in the run, no person for what only a person
// may approve, or no answer in time). The coder hears why the policy asked —
// its rule and reason — and what it can do instead, so a walk-away model
// changes course rather than retrying blind.
func unanswered(by, why string, v policy.Verdict) Decision {
	reason := why
	if r := policyWhy(v); r != "" {
		reason += "; " + r
	}
	msg := "Sentinel denied this: " + reason + ". " + instead(v)
	return Decision{Outcome: OutcomeDeny, By: by, Reason: reason, Message: strings.TrimSpace(msg)}
}

// policyWhy is "the policy asks: <reason> (rule <id>)", or "" when the
// verdict carries neither.
func policyWhy(v policy.Verdict) string {
	if v.Reason == "" && v.Rule == "" {
		return ""
	}
	if v.Reason == "" {
		return "policy rule " + v.Rule
	}
	s := "the policy asks about it: " + clipLine(v.Reason, 200)
	if v.Rule != "" {
		s += " (rule " + v.Rule + ")"
	}
	return s
}

// instead says what would go through without asking: the parts of a
// command line the policy allows by themselves, and the way forward for
// what only a person may approve.
func instead(v policy.Verdict) string {
	var ok, asked []string
	for _, p := range v.Parts {
		switch p.Decision {
		case policy.Allow:
			ok = append(ok, "`"+clipLine(p.Text, 80)+"`")
		case policy.Ask, policy.Deny:
			asked = append(asked, "`"+clipLine(p.Text, 80)+"`")
		}
	}
	var b strings.Builder
	if len(asked) > 0 && len(ok) > 0 {
		fmt.Fprintf(&b, "Of this line, %s would run without asking; %s needs an approval. ", strings.Join(limit(ok, 4), ", "), strings.Join(limit(asked, 4), ", "))
	}
	if v.NeverDelegable {
		b.WriteString("Only a person may approve this, and none is answering now: do not retry it; finish what you can without it and say in your summary what is left for the person.")
	} else {
		b.WriteString("Do not retry the same request: work within what the policy allows without asking (the project's own files, builds and tests inside the workspace), or leave this step for the person and say so in your summary.")
	}
	return b.String()
}

func limit(l []string, n int) []string {
	if len(l) <= n {
		return l
	}
	return append(l[:n:n], fmt.Sprintf("%d more", len(l)-n))
}

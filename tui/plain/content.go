package plain

// What a --plain write or edit card shows of the change it asks for: the
// content written (or each edit's old and new lines), bounded, with a line
// saying how much more there is and that v prints all of it.

import (
	"fmt"
	"io"
	"strings"

	"github.com/sentinelhq/sentinel/approvals"
)

// maxContentLines bounds the change a card prints before v is asked for.
const maxContentLines = 20

// changeLines is the change a write or edit request carries as diff-like
// lines ("+ " written, "- " replaced), or nil when it carries none; for
// content that cannot be shown as text (approvals.UnshownOf), its summary
// ("# " rows), which approve waits to have printed as it does a change.
func changeLines(r approvals.Request) []string {
	if u, unshown := approvals.UnshownOf(r); unshown {
		var out []string
		for _, l := range u.Lines() {
			out = append(out, "# "+l)
		}
		return out
	}
	in, ok := approvals.WriteInputOf(r)
	if !ok {
		return nil
	}
	var out []string
	add := func(mark, s string) {
		if s == "" {
			return
		}
		for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
			out = append(out, mark+l)
		}
	}
	for _, e := range in.Replacements() {
		add("- ", e.Old)
		add("+ ", e.New)
	}
	return out
}

// printChange prints lines from the n-th on, at most limit of them (all when
// limit < 0), each spelled out (Visible), and what is left unprinted.
func printChange(out io.Writer, lines []string, limit int) {
	n := len(lines)
	if limit >= 0 {
		n = min(n, limit)
	}
	for _, l := range lines[:n] {
		fmt.Fprintf(out, "│   %s\n", Visible(l))
	}
	if rest := len(lines) - n; rest > 0 {
		fmt.Fprintf(out, "│   … %d more line(s) not shown: [v] prints all of it\n", rest)
	}
}

// always is what 2 ("yes, don't ask again") remembers for p: the first
// suggested grant, in scope (held to what the policy lets be remembered),
// or nil when nothing can be.
func always(p *approvals.Prompt, scope approvals.Scope) (*approvals.GrantSpec, string) {
	choices := approvals.SuggestGrants(p.Request, p.Verdict)
	if len(choices) == 0 {
		return nil, ""
	}
	if scope == "" {
		scope = approvals.ScopeProject
	}
	g, why := approvals.LimitGrant(approvals.GrantSpec{Scope: scope, Match: choices[0]}, p.Verdict)
	return &g, why
}

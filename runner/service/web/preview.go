package web

import (
	"os"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/policy"
	"github.com/sentinelhq/sentinel/runner"
)

// preview is what a remembered breadth would have covered among the
// project's earlier requests, as the TUI's remember chooser previews it:
// approvals.Preview over runner.PastRequests, asked of the built-in
// policy (the run's own broker, which holds the project's and the user's
// rules too, checks the grant again when it arrives).
type preview struct {
	Covered  int
	Earlier  int
	Examples []Shown
}

// previewsOf fills each option of c with its preview; past is read once
// per project and page.
func previewsOf(c *card, e queue.Entry, past map[string][]approvals.Request) {
	reqs, ok := past[e.Project]
	if !ok {
		reqs = runner.PastRequests(&runner.Project{Root: e.Project})
		past[e.Project] = reqs
	}
	home, _ := os.UserHomeDir()
	ctx := policy.Context{Workspace: e.Request.Cwd, Cwd: e.Request.Cwd, Home: home}
	for i := range c.Options {
		o := &c.Options[i]
		covered := approvals.Preview(approvals.GrantSpec{Scope: c.Scope, Match: o.match, Also: o.also}, reqs, ctx, policy.Default())
		o.Preview = preview{Covered: len(covered), Earlier: len(reqs)}
		for j, r := range covered {
			if j == 3 {
				break
			}
			o.Preview.Examples = append(o.Preview.Examples, Strict(what(r)))
		}
	}
}

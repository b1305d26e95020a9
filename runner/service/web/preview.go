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
// approvals.Preview over runner.PastRequests, asked of the policy the
// project's runs judge by (runner.PolicyOf: the built-in rules plus the
// person's and the project's; the built-in ones alone when those files do
// not load, and the run's broker checks the grant again when it arrives).
type preview struct {
	Covered  int
	Earlier  int
	Examples []Shown
}

// projects holds what previews read of each project, once per page.
type projects struct {
	past     map[string][]approvals.Request
	policies map[string]*policy.Engine
}

func newProjects() *projects {
	return &projects{past: map[string][]approvals.Request{}, policies: map[string]*policy.Engine{}}
}

// of is the project at root's earlier requests and policy.
func (ps *projects) of(root string) ([]approvals.Request, *policy.Engine) {
	p := &runner.Project{Root: root}
	reqs, ok := ps.past[root]
	if !ok {
		reqs = runner.PastRequests(p)
		ps.past[root] = reqs
	}
	eng, ok := ps.policies[root]
	if !ok {
		var err error
		if eng, err = runner.PolicyOf(p); err != nil {
			eng = policy.Default()
		}
		ps.policies[root] = eng
	}
	return reqs, eng
}

// previewsOf fills each option of c with its preview.
func previewsOf(c *card, e queue.Entry, ps *projects) {
	reqs, eng := ps.of(e.Project)
	home, _ := os.UserHomeDir()
	ctx := policy.Context{Workspace: e.Request.Cwd, Cwd: e.Request.Cwd, Home: home}
	for i := range c.Options {
		o := &c.Options[i]
		covered := approvals.Preview(approvals.GrantSpec{Scope: c.Scope, Match: o.match, Also: o.also}, reqs, ctx, eng)
		o.Preview = preview{Covered: len(covered), Earlier: len(reqs)}
		for j, r := range covered {
			if j == 3 {
				break
			}
			o.Preview.Examples = append(o.Preview.Examples, Strict(what(r)))
		}
	}
}

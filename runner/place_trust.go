package runner

import (
	"context"
	"fmt"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/config"
	"github.com/sentinelhq/sentinel/policy"
)

// A place that is not a git repository (an unpacked archive, a downloads
// folder) may ship a .sentinel/ of its own: a policy.toml that allows, a
// templates.toml that remembers a host. In a repository a committed
// .sentinel/ is refused (CheckStateUntracked), so what is there is the
// person's; elsewhere nothing tells the person's files from the place's,
// so each is used only once the person trusted its exact bytes (sentinel
// config trust, which records their hash outside the place), as a
// repository's config.toml is. config.toml itself is held the same way by
// internal/config (its widening settings wait for trust).

// placeStateFile is the path of p's .sentinel/<name> when a run may use it
// ("" when it may not) and, when it may not, the one line that says so
// and how to trust it: config.PlaceStateFile, the gate sentinel mcp and
// sentinel policy check share. A repository's .sentinel/ was checked not
// to be committed before the run started (CheckStateUntracked); in a
// repository a file a coder wrote (from a run in a folder holding it:
// config.CoderWrote) needs trust too. A missing file may be used:
// Sentinel creates it (templates) and trusts what it writes (trustWrites).
func placeStateFile(p *Project, name string) (path, warning string) {
	return config.PlaceStateFile(p.Root, p.GitDir != "", name)
}

// JudgeFiles are what a run in the place holding dir would judge by: its
// project (the git top level, else dir), the rule files (policy.RuleFiles
// through the run's gate), the project's templates file ("" when left
// out) and the lines saying what of the project's was left out and why.
// A repository that commits .sentinel/ (a run refuses to start there) has
// the project's files left out. `sentinel policy check` and `sentinel
// templates test` judge by it.
func JudgeFiles(ctx context.Context, dir string) (p *Project, rules []string, templates string, warnings []string, err error) {
	p, err = FindInPlaceProject(ctx, dir)
	if err != nil {
		return nil, nil, "", nil, err
	}
	if p.GitDir != "" {
		if err := p.CheckStateUntracked(ctx); err != nil {
			w := fmt.Sprintf("%v (a run refuses to start here): the project's policy.toml and templates.toml are left out", err)
			return p, policy.RuleFiles(p.Root, nil), "", []string{w}, nil
		}
	}
	rules, warning := policyFiles(p)
	templates, twarning := placeStateFile(p, "templates.toml")
	for _, w := range []string{warning, twarning} {
		if w != "" {
			warnings = append(warnings, w)
		}
	}
	return p, rules, templates, warnings, nil
}

// trustWrites keeps what Sentinel itself writes into p's project template
// file trusted, in a place that is not a git repository: a remembered
// template or a use count must not make the person's own file untrusted
// (nor, in a repository, a file a coder's mark left untrusted when it was
// missing and Sentinel made it).
func trustWrites(p *Project, set *approvals.TemplateSet) {
	if p.GitDir != "" && !config.CoderWrote(p.Root, "templates.toml") {
		return
	}
	set.OnWrite(func(sc approvals.Scope, file string) {
		if sc != approvals.ScopeProject || file != config.StateFilePath(p.Root, "templates.toml") {
			return
		}
		if sum, present, err := config.HashFile(file); err == nil && present {
			_ = config.TrustFile(p.Root, "templates.toml", sum) // untrusted next run at worst, and it says so
		}
	})
}

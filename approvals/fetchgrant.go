package approvals

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/policy"
)

// fetchOf is the registry hosts a shell request's package install will
// fetch from (policy.FetchHosts over the run's configured registries), or
// nil: the card shows them and may allow them with the command.
func (b *Broker) fetchOf(req Request) *policy.Fetch {
	if req.Kind != policy.KindShell || b.cfg.Registries == nil {
		return nil
	}
	f, ok := policy.FetchHosts(req.Command, b.cfg.Registries())
	if !ok {
		return nil
	}
	return &f
}

// allowFetchHosts remembers, for the rest of this run, the hosts a package
// install was approved with, so the sandbox's proxy (which asks the broker
// about every host it does not know) lets the install through without a
// second card per registry host. Only the hosts the broker itself found
// for this request count, whatever the decider put in d.Hosts; a deny, or
// an approval without hosts, allows none. It returns the hosts allowed.
func (b *Broker) allowFetchHosts(req Request, f *policy.Fetch, d Decision) []string {
	if !d.Allowed() || f == nil || len(d.Hosts) == 0 {
		return nil
	}
	if b.cfg.Templates == nil {
		b.journal(journal.System, KindTemplateError, "could not allow the install's hosts: no template set", nil)
		return nil
	}
	var allowed []string
	for _, h := range d.Hosts {
		if !slices.Contains(f.Hosts, h) || slices.Contains(allowed, h) {
			continue
		}
		if _, err := b.cfg.Templates.Add(GrantSpec{Scope: ScopeRun, Match: Match{Host: h}}, Origin{Run: b.cfg.RunID, Request: req.Summary()}); err != nil {
			b.journal(journal.System, KindTemplateError, "could not allow "+h+" for the install: "+err.Error(), nil)
			continue
		}
		allowed = append(allowed, h)
	}
	if len(allowed) > 0 {
		b.journal(journal.Approval, KindFetchHosts, fmt.Sprintf("allowed %s for this run, with %s", strings.Join(allowed, ", "), oneLine(req.Summary())),
			map[string]any{"hosts": allowed, "ecosystem": f.Ecosystem, "request": req.Summary()})
	}
	return allowed
}

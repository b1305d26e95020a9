package runner

import (
	"fmt"
	"sort"
	"strings"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/supervisor/steer"
)

// whoDecided names who made a decision, from its By, the same in
// FINAL_REPORT.md and DECISIONS.md: the policy, the person's own agent
// rules, a remembered template, the person, the supervisor model, the
// sandbox (a request no approval could help), or nobody (nobody present,
// nobody in time, an error).
func whoDecided(by string) string {
	kind, _, _ := strings.Cut(by, ":")
	switch kind {
	case "policy":
		return "policy"
	case approvals.ByAgentRules:
		return "your agent's own rules"
	case "template":
		return "a remembered template"
	case "person":
		return "you"
	case approvals.BySupervisor:
		return "the supervisor model"
	case approvals.ByNobody:
		return "nobody present"
	case "timeout":
		return "nobody in time"
	case "error":
		return "nobody (an error)"
	case "sandbox":
		return "the sandbox (approving could not help)"
	}
	return kind
}

// whoColumn is a decision's "by" cell in the reports' tables: whoDecided's
// words, with the rule or template that decided it when there is one
// ("policy (build.project)"), so the table reads as the counts do. A
// template is named by its id for the commands, then as a person reads it
// ("a remembered template (t-1a2b “go test (any args) in this project”)"):
// the id first, so a long name cut to the column still leaves it.
func whoColumn(by string, names []string) string {
	who := whoDecided(by)
	kind, detail, _ := strings.Cut(by, ":")
	switch {
	case detail == "" || (kind != "policy" && kind != "template"):
		return who
	case kind == "template":
		ids := strings.Split(detail, "+")
		if len(names) != len(ids) {
			return who + " (" + detail + ")"
		}
		parts := make([]string, len(ids))
		for i, id := range ids {
			parts[i] = id + " “" + names[i] + "”"
		}
		return who + " (" + strings.Join(parts, "; ") + ")"
	}
	return who + " (" + detail + ")"
}

// whoCounts are the decided requests by whoDecided, in a stable order.
func whoCounts(d *Decisions) []string {
	n := map[string]int{}
	for by, c := range d.By {
		n[whoDecided(by)] += c
	}
	keys := make([]string, 0, len(n))
	for k := range n {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		out = append(out, fmt.Sprintf("- decided by %s: %d", md(k), n[k]))
	}
	return out
}

// steeringRisks are the times the supervisor steered the coder during the
// run: what it saw may still be in the work (the coder may have only
// appeared to comply), so each is a risk to check.
func steeringRisks(evs []journal.Event) []string {
	var out []string
	seen := map[string]bool{}
	for _, ev := range evs {
		f, ok := steer.AsFinding(ev)
		if !ok || seen[string(f.Kind)+f.Key] {
			continue
		}
		seen[string(f.Kind)+f.Key] = true
		out = append(out, fmt.Sprintf("- the supervisor steered the coder (%s): %s — check the work does not still do it", md(string(f.Kind)), md(oneLineLong(f.Detail))))
	}
	return out
}

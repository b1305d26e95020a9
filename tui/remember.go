package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/policy"
)

// grantOption is one breadth the person can remember a request at.
type grantOption struct {
	label string
	match approvals.Match
	also  []approvals.Match // remembered with match: a registry preset's other hosts
	// project: the option is meant for the project (a registry preset);
	// choosing it moves the scope to project, which the person may change.
	project bool
}

var (
	scopes   = []approvals.Scope{approvals.ScopeRun, approvals.ScopeProject, approvals.ScopeUser}
	expiries = []time.Duration{0, time.Hour, 8 * time.Hour, 24 * time.Hour, 7 * 24 * time.Hour}
)

// chooser is the remember dialog: how broad, where, for how long.
type chooser struct {
	prompt  *approvals.Prompt
	options []grantOption
	sel     int
	scope   int
	expiry  int
	// covered caches which past requests the selected breadth would have
	// covered; coveredSel is the selection it was computed for (-1: none).
	covered    []approvals.Request
	coveredSel int
	earlier    int // how many past requests the preview looked at
}

// defaultScope is where "approve + remember" stores a grant unless the
// person picks another scope: the project, like Claude Code's "don't ask
// again" (the run and the user are one key away).
var defaultScope = slices.Index(scopes, approvals.ScopeProject)

func newChooser(p *approvals.Prompt) *chooser {
	c := &chooser{prompt: p, options: suggestGrants(p.Request, p.Verdict), scope: defaultScope, coveredSel: -1}
	c.scope = min(c.scope, c.maxScope())
	return c
}

// maxScope is the broadest scope this request may be remembered in: a
// person-only request (a secret read, a write that runs code later) is
// remembered for this run at most (approvals.RememberLimit).
func (c *chooser) maxScope() int {
	limit, _ := approvals.RememberLimit(c.prompt.Verdict)
	return slices.Index(scopes, limit)
}

// alwaysText says exactly what 2 ("always") would remember, before it is
// pressed: the breadth, where it is kept, and why it is held to the run.
func alwaysText(p *approvals.Prompt) string { return alwaysTextIn(p, 0) }

// alwaysTextIn is alwaysText for a card whose prose wraps at w cells: when
// the template's name would take it past maxProseLines it is left out
// (what is covered, where and for how long always stay; the name is in
// sentinel templates list). w 0 is no limit.
func alwaysTextIn(p *approvals.Prompt, w int) string {
	c := newChooser(p)
	spec := c.spec()
	if spec == nil {
		return ""
	}
	limit := ""
	if _, why := approvals.RememberLimit(p.Verdict); why != "" {
		limit = " (" + why + ": only a person may approve it, each run anew)"
	}
	what := grantLabel(spec.Match)
	if spec.Match.Path != "" { // a file's grant is for one kind of access
		what = kindName(p.Request.Kind) + " · " + what
	}
	where := scopeWhere(spec.Scope)
	if e := expiryText(spec.Scope, spec.Expires); e != "" {
		// the file and how long, then how to list it, as short as the
		// card's rows allow
		where = strings.TrimSuffix(where, " (sentinel templates list)") + e
	}
	s := what + " — named “" + approvals.TemplateName(spec.Match, spec.Scope) + "”, " + where + limit
	if w > 0 && strings.Count(ansi.Wrap(s, w, " -/"), "\n") >= maxProseLines {
		s = what + ", " + where + limit
	}
	return s
}

// expiryText says how long a grant of scope s kept for d lasts beyond its
// scope: nothing to add for the run (it ends with it), else when it
// expires or that it does not.
func expiryText(s approvals.Scope, d time.Duration) string {
	switch {
	case s == approvals.ScopeRun:
		return ""
	case d == 0:
		return ", never expires"
	}
	return ", expires after " + expiryName(d)
}

// scopeWhere says where a grant of scope s is kept, for the chooser.
func scopeWhere(s approvals.Scope) string {
	switch s {
	case approvals.ScopeProject:
		return "kept in .sentinel/templates.toml (sentinel templates list)"
	case approvals.ScopeUser:
		if p, err := approvals.UserTemplatesPath(); err == nil {
			if home, err := os.UserHomeDir(); err == nil && home != "" && strings.HasPrefix(p, home+string(filepath.Separator)) {
				p = "~" + p[len(home):]
			}
			return "kept in " + p + " (sentinel templates list)"
		}
		return "kept in the user config directory"
	}
	return "kept until this run ends"
}

func (c *chooser) spec() *approvals.GrantSpec {
	if len(c.options) == 0 {
		return nil
	}
	o := c.options[c.sel]
	return &approvals.GrantSpec{Scope: scopes[c.scope], Match: o.match, Also: o.also, Expires: expiries[c.expiry]}
}

// move picks the next broader (down) or narrower option; a project-wide
// option lifts a run scope to the project.
func (c *chooser) move(down bool) {
	if !down {
		c.sel = max(c.sel-1, 0)
		return
	}
	c.sel = min(c.sel+1, max(len(c.options)-1, 0))
	if len(c.options) > 0 && c.options[c.sel].project && scopes[c.scope] == approvals.ScopeRun {
		c.scope = min(slices.Index(scopes, approvals.ScopeProject), c.maxScope())
	}
}

func (m *model) chooserLines(w int) block {
	st, c := m.styles, m.chooser
	var out block
	out.add(prioKeep, rule(st.CardTitle.Render(" REMEMBER · how broad? "), st.CardBorder, w))
	if len(c.options) == 0 {
		out.add(prioKeep, padTo(st.Muted.Render("  no grant can be remembered for this request"), w))
	}
	for i, o := range c.options {
		s := "   " + o.label
		if i == c.sel {
			out.add(prioKeep, padTo(st.Selected.Render(" ▸ "+o.label), w))
			continue
		}
		out.add(prioMid, padTo(st.Text.Render(s), w))
	}
	pick := func(names []string, sel int) string {
		var parts []string
		for i, n := range names {
			if i == sel {
				parts = append(parts, st.Selected.Render("["+n+"]"))
			} else {
				parts = append(parts, st.Muted.Render(n))
			}
		}
		return strings.Join(parts, " ")
	}
	var sn, en []string
	for _, s := range scopes {
		sn = append(sn, string(s))
	}
	for _, e := range expiries {
		en = append(en, expiryName(e))
	}
	if len(c.options) > 0 {
		if f := c.options[c.sel].match.ProgramFile(); f != "" {
			out.add(prioHigh, padTo(st.Muted.Render("  remembers "+f+" as it is now: if it changes, you are asked again"), w))
		}
	}
	scope, expires := st.CardLabel.Render("  scope ")+pick(sn, c.scope), st.CardLabel.Render("   expires ")+pick(en, c.expiry)
	if ansi.StringWidth(scope+expires) <= w {
		out.add(prioKeep, padTo(scope+expires, w))
	} else {
		out.add(prioKeep, padTo(scope, w))
		out.add(prioKeep, padTo(" "+expires, w))
	}
	out.add(prioHigh, padTo(st.Muted.Render("  "+scopeWhere(scopes[c.scope])), w))
	out.add(prioLow, m.previewLines(w)...)
	out.add(prioKeep, wrapParts("", keyParts(st, m.keys.chooserHelp()), w)...)
	return out
}

// previewLines say which earlier requests the chosen grant would have covered.
func (m *model) previewLines(w int) []string {
	st, c := m.styles, m.chooser
	if !m.pastLoaded {
		return []string{padTo(st.Muted.Render("  looking for earlier requests…"), w)}
	}
	if len(c.options) == 0 {
		return nil
	}
	if m.opts.Preview == nil {
		return []string{padTo(st.Muted.Render("  no preview: this view has no run's approval chain to ask"), w)}
	}
	covered := c.covered
	out := []string{padTo(st.CardLabel.Render(fmt.Sprintf("  would have covered %d of %d earlier requests", len(covered), c.earlier)), w)}
	for i, r := range covered {
		if i == 3 {
			out = append(out, padTo(st.Muted.Render(fmt.Sprintf("    … and %d more", len(covered)-3)), w))
			break
		}
		toks, _ := reveal(requestText(r))
		out = append(out, padTo("    "+renderToks(st, toks), w))
	}
	return out
}

func expiryName(d time.Duration) string {
	switch {
	case d == 0:
		return "never"
	case d%(24*time.Hour) == 0:
		return strconv.Itoa(int(d/(24*time.Hour))) + "d"
	default:
		return strconv.Itoa(int(d/time.Hour)) + "h"
	}
}

// suggestGrants offers the breadths approvals.SuggestGrants allows for the
// request, narrowest first, each with a label a person can read.
func suggestGrants(req approvals.Request, v policy.Verdict) []grantOption {
	var out []grantOption
	for _, m := range approvals.SuggestGrants(req, v) {
		out = append(out, grantOption{label: grantLabel(m), match: m})
	}
	if r, m, also, ok := approvals.RegistryGrant(req); ok {
		out = append(out, grantOption{label: "allow " + r.Label + " for this project (" + strings.Join(r.Hosts, ", ") + ")",
			match: m, also: also, project: true})
	}
	return out
}

func grantLabel(m approvals.Match) string {
	switch {
	case m.Exact != nil:
		return "exactly: " + quoteArgv(m.Exact)
	case m.Prefix != nil:
		return "starting with: " + quoteArgv(m.Prefix) + " …"
	case strings.ContainsAny(m.Path, "*?["):
		return "files matching " + m.Path + " in the workspace"
	case m.Path != "":
		return "exactly the file " + m.Path + " in the workspace"
	case m.Host != "":
		return "exactly the host " + m.Host
	}
	return "nothing"
}

func quoteArgv(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`;&|<>(){}*?[]#~") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		q[i] = a
	}
	return strings.Join(q, " ")
}

func requestText(r approvals.Request) string {
	switch {
	case r.Command != "":
		return r.Command
	case r.Path != "":
		return string(r.Kind) + " " + r.Path
	case r.Host != "":
		return "net " + r.Host
	}
	return string(r.Kind) + " " + r.Tool
}

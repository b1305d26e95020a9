package tui

import (
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/policy"
)

// grantOption is one breadth the person can remember a request at.
type grantOption struct {
	label string
	match approvals.Match
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
}

func newChooser(p *approvals.Prompt) *chooser {
	return &chooser{prompt: p, options: suggestGrants(p.Request, p.Verdict)}
}

func (c *chooser) spec() *approvals.GrantSpec {
	if len(c.options) == 0 {
		return nil
	}
	return &approvals.GrantSpec{Scope: scopes[c.scope], Match: c.options[c.sel].match, Expires: expiries[c.expiry]}
}

func (m *model) chooserKey(k tea.KeyPressMsg) tea.Cmd {
	c := m.chooser
	switch {
	case key.Matches(k, m.keys.Back):
		m.chooser = nil
		m.mode = modeNormal
	case k.String() == "up" || k.String() == "k":
		c.sel = max(c.sel-1, 0)
	case k.String() == "down" || k.String() == "j":
		c.sel = min(c.sel+1, max(len(c.options)-1, 0))
	case key.Matches(k, m.keys.Scope):
		c.scope = (c.scope + 1) % len(scopes)
	case key.Matches(k, m.keys.Expiry):
		c.expiry = (c.expiry + 1) % len(expiries)
	case key.Matches(k, m.keys.Confirm):
		spec := c.spec()
		if spec == nil {
			m.flash = "nothing to remember for this kind of request: approve once or deny"
			return nil
		}
		return m.answer(approvals.Answer{Kind: approvals.ApproveRemember, Grant: spec})
	}
	return nil
}

func (m *model) chooserLines(w int) []string {
	st, c := m.styles, m.chooser
	out := []string{rule(st.CardTitle.Render(" REMEMBER · how broad? "), st.CardBorder, w)}
	if len(c.options) == 0 {
		out = append(out, padTo(st.Muted.Render("  no grant can be remembered for this request"), w))
	}
	for i, o := range c.options {
		s := "   " + o.label
		if i == c.sel {
			out = append(out, padTo(st.Selected.Render(" ▸ "+o.label), w))
			continue
		}
		out = append(out, padTo(st.Text.Render(s), w))
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
	out = append(out, padTo(st.CardLabel.Render("  scope ")+pick(sn, c.scope)+st.CardLabel.Render("   expires ")+pick(en, c.expiry), w))
	out = append(out, m.previewLines(w)...)
	return append(out, padTo(" "+m.keysLine(m.keys.chooserHelp()), w))
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
	covered := preview(c.options[c.sel].match, m.past)
	out := []string{padTo(st.CardLabel.Render(fmt.Sprintf("  would have covered %d of %d earlier requests", len(covered), len(m.past))), w)}
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

// suggestGrants offers breadths from narrowest to broadest: the exact argv and
// its token prefixes for a shell command, the path and globs of its
// directory for a file, the exact host for the network.
//
// Local stand-in until approvals.SuggestGrants lands; it works on the
// policy's decoded argv and never on raw text.
func suggestGrants(req approvals.Request, v policy.Verdict) []grantOption {
	var out []grantOption
	switch req.Kind {
	case policy.KindShell:
		if len(v.Parts) != 1 || v.Parts[0].Argv == nil || v.Parts[0].Dynamic {
			// A compound or dynamic line cannot be covered by one argv match.
			return nil
		}
		argv := v.Parts[0].Argv
		out = append(out, grantOption{"exactly: " + quoteArgv(argv), approvals.Match{Exact: argv}})
		for n := len(argv) - 1; n >= 1; n-- {
			if n == 1 && len(argv) > 2 {
				break // a bare program name is too broad to offer
			}
			out = append(out, grantOption{"starting with: " + quoteArgv(argv[:n]) + " …", approvals.Match{Prefix: argv[:n]}})
		}
	case policy.KindWrite, policy.KindEdit:
		if req.Path == "" {
			return nil
		}
		out = append(out, grantOption{"exactly: " + req.Path, approvals.Match{Path: req.Path}})
		dir := path.Dir(req.Path)
		out = append(out, grantOption{"files in " + dir + "/*", approvals.Match{Path: dir + "/*"}})
		out = append(out, grantOption{"anything under " + dir + "/**", approvals.Match{Path: dir + "/**"}})
	case policy.KindNet:
		if req.Host == "" {
			return nil
		}
		h := req.Host
		if req.Port != 0 {
			h += ":" + strconv.Itoa(req.Port)
		}
		out = append(out, grantOption{"exactly the host " + h, approvals.Match{Host: h}})
	}
	return out
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

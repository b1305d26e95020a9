package web

import (
	"slices"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/policy"
)

// card is one waiting request as the page shows it: every string from the
// run or the coder is Shown.
type card struct {
	ID      string // the queue's id: 8 hex digits
	Kind    string
	Run     Shown
	Project Shown
	Coder   Shown
	What    Shown // the command, path, host or tool
	Rule    Shown
	Reason  Shown
	Waiting string
	Content []diffLine // a write's content or an edit's diff
	Rest    int        // how many more lines of it there are, not shown until asked for
	Seen    string     // the hash of the content shown (queue.SeenOf), sent with an approve
	// CanApprove: the card shows all there is to approve (the TUI's
	// rule); otherwise it offers to show the rest, and no approve.
	CanApprove bool
	Options    []grantOption
	Scopes     []approvals.Scope // the scopes this request may be remembered in, narrowest first
	Scope      approvals.Scope   // the one chosen unless the person picks another
	Limit      Shown             // why the scopes stop at run, if they do
	Personal   bool              // person-only: no one-tap approve from a push
}

type diffLine struct {
	Sign string // "+", "-" or " "
	Text Shown
}

// grantOption is one breadth a remembered approval may take, as
// approvals.SuggestGrants and approvals.RegistryGrant offer it.
type grantOption struct {
	Label   Shown
	Preview preview
	match   approvals.Match
	also    []approvals.Match
}

var allScopes = []approvals.Scope{approvals.ScopeRun, approvals.ScopeProject, approvals.ScopeUser}

// expiries are the lifetimes a remembered grant may have (as the TUI's).
var expiries = []struct {
	Label string
	D     time.Duration
}{{"never", 0}, {"1h", time.Hour}, {"8h", 8 * time.Hour}, {"1d", 24 * time.Hour}, {"7d", 7 * 24 * time.Hour}}

// cardOf builds e's card.
func cardOf(e queue.Entry, now time.Time) card {
	c := card{ID: e.ID, Kind: string(e.Kind), Run: Strict(e.Run), Project: Strict(e.Project), Coder: Line(e.Coder),
		What: Strict(what(e.Request)), Rule: Line(e.Verdict.Rule), Reason: Line(e.Verdict.Reason),
		Waiting: now.Sub(e.WaitingSince).Round(time.Second).String(), Options: optionsOf(e.Request, e.Verdict)}
	c.showContent(e, false)
	limit, why := approvals.RememberLimit(e.Verdict)
	c.Scopes = allScopes[:slices.Index(allScopes, limit)+1]
	c.Scope = approvals.ScopeProject
	if why != "" {
		c.Scope, c.Limit, c.Personal = approvals.ScopeRun, Line(why+": remembered for this run at most"), true
	}
	return c
}

// personOnly says whether only a person at the page may approve e.
func personOnly(e queue.Entry) bool {
	_, why := approvals.RememberLimit(e.Verdict)
	return why != ""
}

func what(r approvals.Request) string {
	switch {
	case r.Command != "":
		return r.Command
	case r.Path != "":
		return r.Path
	case r.URL != "":
		return r.URL
	case r.Host != "":
		return r.Host
	}
	return r.Tool
}

// optionsOf is the breadths the TUI's remember chooser offers.
func optionsOf(req approvals.Request, v policy.Verdict) []grantOption {
	var out []grantOption
	for _, m := range approvals.SuggestGrants(req, v) {
		out = append(out, grantOption{Label: Strict(grantLabel(m)), match: m})
	}
	if r, m, also, ok := approvals.RegistryGrant(req); ok {
		out = append(out, grantOption{Label: Strict("allow " + r.Label + " for this project (" + strings.Join(r.Hosts, ", ") + ")"), match: m, also: also})
	}
	return out
}

func grantLabel(m approvals.Match) string {
	switch {
	case m.Exact != nil:
		return "exactly: " + strings.Join(m.Exact, " ")
	case m.Prefix != nil:
		return "starting with: " + strings.Join(m.Prefix, " ") + " ..."
	case strings.ContainsAny(m.Path, "*?["):
		return "files matching " + m.Path + " in the workspace"
	case m.Path != "":
		return "exactly the file " + m.Path + " in the workspace"
	case m.Host != "":
		return "exactly the host " + m.Host
	}
	return "nothing"
}

// maxContentLines bounds what a card shows of a change until the person
// asks for all of it.
const maxContentLines = 400

// contentOf is a write's content as added lines, or an edit as its old
// lines removed and new lines added: all of it, or the first
// maxContentLines and how many more there are.
func contentOf(req approvals.Request, all bool) (out []diffLine, rest int) {
	lines, _ := queue.ContentOf(req)
	for i, l := range lines {
		if i == maxContentLines && !all {
			return out, len(lines) - i
		}
		out = append(out, diffLine{Sign: l.Sign, Text: Line(l.Text)})
	}
	return out, 0
}

// showContent fills c's content, all of it when all is set. Approve is
// offered only for a card whose whole content is shown (as the TUI's
// rule: see all to approve): its forms carry the content's hash, which
// the queue wants for a write or edit.
func (c *card) showContent(e queue.Entry, all bool) {
	c.Content, c.Rest = contentOf(e.Request, all)
	c.Seen = queue.SeenOf(e.Request)
	_, readable := queue.ContentOf(e.Request)
	c.CanApprove = c.Seen == "" || readable && c.Rest == 0
	if !c.CanApprove {
		c.Seen = ""
	}
}

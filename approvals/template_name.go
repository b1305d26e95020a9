package approvals

import (
	"strings"

	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// A template's name is what a person reads wherever it is mentioned — the
// card before "always" is pressed, `sentinel templates`, `sentinel config`,
// the journal's "reused template" lines: what it matches, how, and where it
// holds ("go test (any args) in this project"). It is derived from the
// match and scope, so it cannot say more or less than the template does;
// the id stays the stable key the commands take.

// maxNamePattern bounds the pattern part of a name, in runes.
const maxNamePattern = 60

// TemplateName is the readable name of a template that matches m in scope s.
func TemplateName(m Match, s Scope) string {
	var what string
	switch {
	case m.Prefix != nil:
		what = clip(quoteArgv(m.Prefix)) + " (any args)"
	case m.Exact != nil:
		what = clip(quoteArgv(m.Exact)) + " (exactly)"
	case m.Path != "":
		what = "writing " + clip(m.Path)
	case m.Host != "":
		what = "connecting to " + clip(m.Host)
	default:
		return "nothing"
	}
	if m.ProgramSHA256 != "" {
		what += " while " + clip(m.ProgramFile()) + " is unchanged"
	}
	return what + " " + scopePhrase(s)
}

// Name is the template's readable name (TemplateName); a grant for the
// proxy says so.
func (t *Template) Name() string {
	if t.ProxyOnly {
		return "the sandbox's proxy " + TemplateName(t.Match, t.Scope) + " for a tool call approved moments ago"
	}
	return TemplateName(t.Match, t.Scope)
}

// NameOf is the name of the template with id in s, or id itself when s
// holds none (removed meanwhile).
func (s *TemplateSet) NameOf(id string) string {
	if s == nil {
		return id
	}
	if t, ok := s.Get(id); ok {
		return t.Name()
	}
	return id
}

func scopePhrase(s Scope) string {
	switch s {
	case ScopeRun:
		return "in this run"
	case ScopeProject:
		return "in this project"
	case ScopeUser:
		return "in all your projects"
	}
	return "in scope " + string(s)
}

func clip(s string) string { return textsafe.ClipLine(s, maxNamePattern-1) }

// namesOf are the names of the templates ids in set, in their order.
func namesOf(set *TemplateSet, ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = set.NameOf(id)
	}
	return out
}

// reusedText is the journal's and the decision's words for a request
// templates answered: each template by name (names, namesOf's), with its id.
func reusedText(ids, names []string) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = "“" + names[i] + "” (" + id + ")"
	}
	word := "reused template "
	if len(ids) > 1 {
		word = "reused templates "
	}
	return word + strings.Join(parts, " and ")
}

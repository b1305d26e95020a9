package approvals

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/sentinelhq/sentinel/policy"
)

// splitCommands parses a shell line into its simple commands with their
// static argv. It is NOT a policy: the broker judges requests only with the
// parts the policy engine returns. This small parser serves where no engine
// verdict is at hand — tokenising `templates add --prefix`, re-checking a
// template's examples when a file loads, and offering grant breadths when an
// engine gave no parts. Anything it cannot read statically is marked Dynamic.
func splitCommands(line string) ([]policy.Part, error) {
	f, err := syntax.NewParser(syntax.KeepComments(false)).Parse(strings.NewReader(line), "")
	if err != nil {
		return nil, fmt.Errorf("cannot parse %q as a shell command: %w", line, err)
	}
	var parts []policy.Part
	syntax.Walk(f, func(n syntax.Node) bool {
		st, ok := n.(*syntax.Stmt)
		if !ok {
			return true
		}
		call, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		p := policy.Part{Text: nodeText(line, st)}
		dynamic := len(call.Assigns) > 0
		for _, w := range call.Args {
			s, static := literalWord(w)
			if !static {
				dynamic = true
			}
			p.Argv = append(p.Argv, s)
		}
		for _, r := range st.Redirs {
			target := ""
			if r.Word != nil {
				target, _ = literalWord(r.Word)
			}
			p.Redirects = append(p.Redirects, target)
		}
		p.Dynamic = dynamic
		if dynamic {
			p.Argv = nil
		}
		parts = append(parts, p)
		return true
	})
	return parts, nil
}

// literalWord decodes a word made only of literals and quotes.
func literalWord(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, wp := range w.Parts {
		switch x := wp.(type) {
		case *syntax.Lit:
			b.WriteString(unescape(x.Value))
		case *syntax.SglQuoted:
			if x.Dollar {
				return "", false
			}
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			for _, in := range x.Parts {
				l, ok := in.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func nodeText(src string, n syntax.Node) string {
	s, e := int(n.Pos().Offset()), int(n.End().Offset())
	if s < 0 || e > len(src) || s > e {
		return ""
	}
	return src[s:e]
}

// ParseArgv reads one simple command with static words into its argv, as
// `templates add --prefix/--exact` needs. A compound line, a substitution or
// a redirection is an error.
func ParseArgv(text string) ([]string, error) {
	parts, err := splitCommands(text)
	if err != nil {
		return nil, err
	}
	if len(parts) != 1 {
		return nil, fmt.Errorf("%q is not one simple command (found %d); give one command like 'python -m pytest'", text, len(parts))
	}
	p := parts[0]
	if p.Dynamic || len(p.Redirects) > 0 {
		return nil, fmt.Errorf("%q has a substitution, variable or redirection; templates match plain words only", text)
	}
	return p.Argv, nil
}

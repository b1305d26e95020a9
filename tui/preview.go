package tui

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/policy"
)

// preview lists the past requests a grant with match would have covered.
//
// Local stand-in until approvals.Preview lands. For a shell request every
// simple command of the line must be covered and each must have a static argv;
// anything dynamic counts as not covered, so the preview never overstates.
func preview(match approvals.Match, past []approvals.Request) []approvals.Request {
	var out []approvals.Request
	for _, r := range past {
		if covers(match, r) {
			out = append(out, r)
		}
	}
	return out
}

func covers(m approvals.Match, r approvals.Request) bool {
	switch {
	case m.Exact != nil || m.Prefix != nil:
		if r.Kind != policy.KindShell {
			return false
		}
		cmds, ok := staticCommands(r.Command)
		if !ok || len(cmds) == 0 {
			return false
		}
		for _, argv := range cmds {
			if m.Exact != nil && !slices.Equal(argv, m.Exact) {
				return false
			}
			if m.Prefix != nil && (len(argv) < len(m.Prefix) || !slices.Equal(argv[:len(m.Prefix)], m.Prefix)) {
				return false
			}
		}
		return true
	case m.Path != "":
		if r.Kind != policy.KindWrite && r.Kind != policy.KindEdit {
			return false
		}
		if strings.HasSuffix(m.Path, "/**") {
			return strings.HasPrefix(path.Clean(r.Path), strings.TrimSuffix(m.Path, "**"))
		}
		ok, err := path.Match(m.Path, path.Clean(r.Path))
		return err == nil && ok
	case m.Host != "":
		if r.Kind != policy.KindNet {
			return false
		}
		h := r.Host
		if r.Port != 0 && strings.Contains(m.Host, ":") {
			h += ":" + strconv.Itoa(r.Port)
		}
		return strings.EqualFold(h, m.Host)
	}
	return false
}

// staticCommands parses shell text into the argv of every simple command; ok
// is false when any word is not static text.
func staticCommands(src string) ([][]string, bool) {
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil {
		return nil, false
	}
	var cmds [][]string
	ok := true
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CallExpr:
			if len(n.Assigns) > 0 {
				ok = false
			}
			var argv []string
			for _, w := range n.Args {
				s, static := staticWord(w)
				if !static {
					ok = false
					return false
				}
				argv = append(argv, s)
			}
			if len(argv) > 0 {
				cmds = append(cmds, argv)
			}
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.FuncDecl, *syntax.ArithmExp:
			ok = false
			return false
		}
		return ok
	})
	return cmds, ok
}

func staticWord(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(unescapeLit(p.Value))
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
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

// unescapeLit removes the backslashes of an unquoted literal.
func unescapeLit(s string) string {
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

package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// heredocText reads `$(cat <<'EOF' … EOF)`: cat of a here-document whose
// delimiter is quoted, so bash expands nothing in it. Its output is the
// text itself, known before the line runs: Claude Code writes every commit
// message this way (git commit -m "$(cat <<'EOF' … EOF)"). The value is
// the body without its trailing newlines, as $() gives it. ok is false for
// anything else (an unquoted delimiter, other redirections, arguments).
func heredocText(cs *syntax.CmdSubst) (string, bool) {
	if len(cs.Stmts) != 1 {
		return "", false
	}
	st := cs.Stmts[0]
	call, isCall := st.Cmd.(*syntax.CallExpr)
	if !isCall || st.Negated || st.Background || st.Coprocess || len(call.Assigns) > 0 || len(call.Args) != 1 ||
		call.Args[0].Lit() != "cat" || len(st.Redirs) != 1 {
		return "", false
	}
	r := st.Redirs[0]
	if (r.Op != syntax.Hdoc && r.Op != syntax.DashHdoc) || r.N != nil || r.Word == nil || r.Hdoc == nil {
		return "", false
	}
	quoted := false
	for _, p := range r.Word.Parts {
		switch p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			quoted = true
		}
	}
	if !quoted {
		return "", false
	}
	var b strings.Builder
	for _, p := range r.Hdoc.Parts {
		lit, ok := p.(*syntax.Lit)
		if !ok {
			return "", false
		}
		b.WriteString(lit.Value)
	}
	body := b.String()
	if r.Op == syntax.DashHdoc {
		lines := strings.Split(body, "\n")
		for i, l := range lines {
			lines[i] = strings.TrimLeft(l, "\t")
		}
		body = strings.Join(lines, "\n")
	}
	return strings.TrimRight(body, "\n"), true
}

package policy

import (
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Inert shell values (issue 32, off28): `i=0; echo $((i+1))`,
// `n=3; for ((k=0; k<n; k++)); do …; done`. Arithmetic evaluates a
// variable's value as an expression, which is a sink only when the value
// can hold one (evalsink.go). A name whose every value on the line is a
// number is no sink:
//
//   - its first setting is a top-level statement of only assignments
//     (`i=0`, not an `i=0 cmd` prefix, not inside a loop or a function),
//     and no use of it comes before that statement, so the person's
//     environment never gives it a value;
//   - every assignment to it anywhere on the line (functions, subshells
//     and substitutions included) is a plain `i=DIGITS`, `i+=DIGITS`,
//     `i=` or `i=$(( … ))`; an arithmetic assignment (`i++`, `(( i += 2 ))`) always
//     stores a number, its operands judged where they stand;
//   - no command word or string on the line names it otherwise: `read i`,
//     `for i in …`, `printf -v i`, `unset i`, `eval "i=…"`, `declare -n`,
//     `export i` all make it not inert (the test is the name as a word of
//     the text, so any mention but $i, ${i} and arithmetic asks).
//
// Bash's special parameters $#, $?, $$ and $! are numbers whatever the
// line does: no assignment can name them. Its numeric variables (RANDOM,
// SECONDS, PPID …) are not counted: `unset RANDOM` takes away what makes
// them numbers, and the line may then give them any value.

type inertSet map[string]bool

// inertNumeric are bash's special parameters that always hold a number.
var inertNumeric = wordSet{words: []string{"#", "?", "$", "!"}}

var digitsOnly = lazy[*regexp.Regexp]{build: func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]*$`) }}

// inertNames finds the names of f whose every value is a number.
func inertNames(f *syntax.File) inertSet {
	first := map[string]syntax.Pos{} // the first top-level statement that sets each name
	for _, st := range f.Stmts {
		if name, ok := arithmLiteralSet(st); ok {
			if _, seen := first[name]; !seen {
				first[name] = st.Pos()
			}
			continue
		}
		call, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(call.Args) > 0 || st.Background || st.Negated || len(st.Redirs) > 0 {
			continue
		}
		for _, a := range call.Assigns {
			if a.Name != nil && a.Index == nil && a.Array == nil && !a.Naked {
				if _, seen := first[a.Name.Value]; !seen {
					first[a.Name.Value] = st.Pos()
				}
			}
		}
	}
	if len(first) == 0 {
		return nil
	}
	bad := map[string]bool{}
	// Names bash itself fills from data without the name on the line
	// (read's REPLY, mapfile's MAPFILE, getopts' OPTARG, select's REPLY,
	// [[ =~ ]]'s BASH_REMATCH, coproc's COPROC): never inert.
	for _, name := range []string{"REPLY", "MAPFILE", "OPTARG", "OPTIND", "BASH_REMATCH", "COPROC"} {
		bad[name] = true
	}
	uses := map[string]syntax.Pos{}
	use := func(name string, at syntax.Pos) {
		if p, ok := uses[name]; !ok || at.Offset() < p.Offset() {
			uses[name] = at
		}
	}
	mention := func(w *syntax.Word) {
		syntax.Walk(w, func(m syntax.Node) bool {
			text := ""
			switch m := m.(type) {
			case *syntax.ArithmExp, *syntax.CmdSubst, *syntax.ProcSubst:
				return false // judged where they stand; substitutions' own calls are walked below
			case *syntax.ParamExp:
				return m.Exp != nil // ${x:-word}: the word is text
			case *syntax.Lit:
				text = m.Value
			case *syntax.SglQuoted:
				text = m.Value
			}
			for name := range first {
				if wordMentions(text, name) {
					bad[name] = true
				}
			}
			return true
		})
	}
	every := false // source, . and eval may set any name
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CallExpr:
			for _, w := range n.Args {
				switch w.Lit() {
				case "source", ".", "eval", "let", // may set any name
					"read", "mapfile", "readarray", "getopts", "coproc": // set names given or implied
					every = true
				}
				mention(w)
			}
		case *syntax.Redirect:
			if n.Word != nil {
				mention(n.Word)
			}
			if n.Hdoc != nil {
				mention(n.Hdoc)
			}
		case *syntax.Assign:
			if n.Name == nil {
				return true
			}
			use(n.Name.Value, n.Pos())
			if n.Index != nil || n.Array != nil || n.Naked || n.Value != nil && !numberValue(n.Value) {
				bad[n.Name.Value] = true
			}
		case *syntax.ParamExp:
			if n.Param != nil {
				use(n.Param.Value, n.Pos())
				if n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) {
					bad[n.Param.Value] = true
				}
			}
		case *syntax.ForClause:
			if n.Select {
				every = true // select sets REPLY from the person's input
			}
			if wi, ok := n.Loop.(*syntax.WordIter); ok && wi.Name != nil {
				bad[wi.Name.Value] = true
			}
		case *syntax.ArithmExp, *syntax.ArithmCmd, *syntax.CStyleLoop:
			syntax.Walk(n, func(m syntax.Node) bool {
				if w, ok := m.(*syntax.Word); ok && plainName.get().MatchString(w.Lit()) {
					use(w.Lit(), w.Pos())
				}
				return true
			})
		}
		return true
	})
	if every {
		return nil
	}
	out := inertSet{}
	for name, at := range first {
		if u, ok := uses[name]; !bad[name] && ok && u.Offset() >= at.Offset() {
			out[name] = true
		}
	}
	return out
}

// wordMentions: text names name as a word of its own (read i, eval
// "i=1"), not as part of a longer name.
func wordMentions(text, name string) bool {
	for i := strings.Index(text, name); i >= 0; {
		before := i == 0 || !isNameByte(text[i-1])
		end := i + len(name)
		after := end == len(text) || !isNameByte(text[end])
		if before && after {
			return true
		}
		j := strings.Index(text[i+1:], name)
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

func isNameByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// inertWord: an arithmetic word that is a name of the set, or $name /
// ${name} of one.
func (in inertSet) word(w *syntax.Word) bool {
	if name := w.Lit(); name != "" {
		return in[name] || inertNumeric.has(name)
	}
	if len(w.Parts) != 1 {
		return false
	}
	p, ok := w.Parts[0].(*syntax.ParamExp)
	if !ok || p.Param == nil || p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Exp != nil || p.Names != 0 {
		return false
	}
	return in[p.Param.Value] || inertNumeric.has(p.Param.Value)
}

// arithmLiteralSet: a top-level `(( i = 0 ))` or `for (( i = 0; …))`
// sets i to a literal number before anything else in it runs.
func arithmLiteralSet(st *syntax.Stmt) (string, bool) {
	var x syntax.ArithmExpr
	switch c := st.Cmd.(type) {
	case *syntax.ArithmCmd:
		x = c.X
	case *syntax.ForClause:
		if l, ok := c.Loop.(*syntax.CStyleLoop); ok {
			x = l.Init
		}
	}
	b, ok := x.(*syntax.BinaryArithm)
	if !ok || b.Op != syntax.Assgn || !literalArithm(b.Y) {
		return "", false
	}
	w, ok := b.X.(*syntax.Word)
	if !ok || !plainName.get().MatchString(w.Lit()) || strings.Contains(w.Lit(), "[") {
		return "", false
	}
	return w.Lit(), true
}

// numberWord: an argument whose every part is a literal without glob or
// space, $(( )) of inert names and numbers, or $name of an inert name, in
// or out of double quotes: a number, or plain text, whatever runs.
func (in inertSet) numberWord(w *syntax.Word) bool {
	var part func(p syntax.WordPart) bool
	part = func(p syntax.WordPart) bool {
		switch p := p.(type) {
		case *syntax.Lit:
			return constSafe(p.Value)
		case *syntax.ArithmExp:
			return p.X != nil && in.arithm(p.X)
		case *syntax.ParamExp:
			return in.word(&syntax.Word{Parts: []syntax.WordPart{p}})
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if _, lit := q.(*syntax.Lit); !lit && !part(q) { // text in quotes is one word, as written
					return false
				}
			}
			return true
		}
		return false
	}
	for _, p := range w.Parts {
		if !part(p) {
			return false
		}
	}
	return len(w.Parts) > 0
}

// numberValue: an assigned value that is DIGITS, empty, or one $(( ))
// (always a number; its inside is judged where it stands).
func numberValue(w *syntax.Word) bool {
	if len(w.Parts) == 0 {
		return true
	}
	if len(w.Parts) == 1 {
		if _, ok := w.Parts[0].(*syntax.ArithmExp); ok {
			return true
		}
	}
	l := w.Lit()
	return l != "" && digitsOnly.get().MatchString(l)
}

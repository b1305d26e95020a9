package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// More bindings bash makes, found by polcorp12 spelling a command's name
// (bindprop.go keeps only a deny of the line so written):
//
//	hash -p /usr/bin/git ls; ls push --force   ls now runs /usr/bin/git
//	declare -n ref=v; v=git; $ref push …        $ref is v's value
//	$(rev <<< tig) push …                       a filter of text in sight
//	$(echo hju | tr b-z a-y) push …
//
// A filter's output is known when its input is: a here-string, or echo or
// printf of known words, through rev, tr SET1 SET2 (plain letters and
// ranges), cat; any other program or option is not followed.

// namerefTarget is the variable a nameref stands for, or name itself.
func (b *binder) namerefTarget(name string) string {
	for i := 0; i < 8; i++ {
		t, ok := b.namerefs[name]
		if !ok {
			return name
		}
		name = t
	}
	return name
}

// bindNameref records declare -n / local -n / typeset -n NAME=TARGET.
func (b *binder) bindNameref(x *syntax.DeclClause) bool {
	ref := false
	for _, a := range x.Args {
		if a.Naked && a.Name == nil && a.Value != nil && strings.HasPrefix(a.Value.Lit(), "-") && strings.Contains(a.Value.Lit(), "n") {
			ref = true
		}
	}
	if !ref {
		return false
	}
	for _, a := range x.Args {
		if a.Name == nil || a.Naked || a.Value == nil {
			continue
		}
		if t, ok := b.lit(a.Value); ok && sbtIdent(strings.ReplaceAll(t, "_", "x")) {
			if b.namerefs == nil {
				b.namerefs = map[string]string{}
			}
			b.namerefs[a.Name.Value] = t
			delete(b.vars, a.Name.Value)
		}
	}
	return true
}

// bindHash records hash -p PATH NAME: NAME runs PATH.
func (b *binder) bindHash(args []string) {
	if len(args) == 4 && args[1] == "-p" && args[2] != "\x00" && args[3] != "\x00" && strings.HasPrefix(args[2], "/") {
		if b.aliases == nil {
			b.aliases = map[string]string{}
		}
		b.aliases[args[3]] = shellQuote(args[2])
	}
}

// filterSubst is the output of $(…) whose command is a filter of text in
// plain sight (see above).
func (b *binder) filterSubst(cs *syntax.CmdSubst) (string, bool) {
	if len(cs.Stmts) != 1 {
		return "", false
	}
	if _, pipe := cs.Stmts[0].Cmd.(*syntax.BinaryCmd); !pipe && len(cs.Stmts[0].Redirs) == 0 {
		return "", false // a plain call: substOutput's own reading
	}
	out, ok := b.stageOutput(cs.Stmts[0], "", false)
	return strings.TrimRight(out, "\n"), ok
}

// stageOutput is the output of one stage of a pipeline given its input
// (have says there is one in sight).
func (b *binder) stageOutput(st *syntax.Stmt, in string, have bool) (string, bool) {
	if bc, ok := st.Cmd.(*syntax.BinaryCmd); ok {
		if bc.Op != syntax.Pipe || len(st.Redirs) > 0 {
			return "", false
		}
		left, ok := b.stageOutput(bc.X, in, have)
		if !ok {
			return "", false
		}
		return b.stageOutput(bc.Y, left, true)
	}
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(call.Args) == 0 {
		return "", false
	}
	for _, r := range st.Redirs {
		if r.Op != syntax.WordHdoc || r.N != nil || have {
			return "", false
		}
		v, ok := b.lit(r.Word)
		if !ok {
			return "", false
		}
		in, have = v+"\n", true
	}
	args := make([]string, len(call.Args))
	for i, w := range call.Args {
		v, ok := b.lit(w)
		if !ok {
			return "", false
		}
		args[i] = v
	}
	switch {
	case !have && (args[0] == "echo" || args[0] == "printf"):
		if len(st.Redirs) > 0 {
			return "", false
		}
		out, ok := b.substOutput(&syntax.CmdSubst{Stmts: []*syntax.Stmt{st}})
		return out + "\n", ok
	case have && args[0] == "rev" && len(args) == 1:
		lines := strings.Split(strings.TrimSuffix(in, "\n"), "\n")
		for i, l := range lines {
			r := []rune(l)
			for x, y := 0, len(r)-1; x < y; x, y = x+1, y-1 {
				r[x], r[y] = r[y], r[x]
			}
			lines[i] = string(r)
		}
		return strings.Join(lines, "\n") + "\n", true
	case have && args[0] == "cat" && len(args) == 1:
		return in, true
	case have && args[0] == "tr" && len(args) == 3:
		from, ok1 := trSet(args[1])
		to, ok2 := trSet(args[2])
		if !ok1 || !ok2 || len(to) == 0 {
			return "", false
		}
		m := map[rune]rune{}
		for i, r := range from {
			if i < len(to) {
				m[r] = to[i]
			} else {
				m[r] = to[len(to)-1]
			}
		}
		return strings.Map(func(r rune) rune {
			if t, ok := m[r]; ok {
				return t
			}
			return r
		}, in), true
	}
	return "", false
}

// trSet expands a tr set of plain characters and ranges (a-z); anything
// else (escapes, classes, an option) is not read.
func trSet(s string) ([]rune, bool) {
	if s == "" || strings.HasPrefix(s, "-") || strings.ContainsAny(s, `\[`) {
		return nil, false
	}
	r := []rune(s)
	var out []rune
	for i := 0; i < len(r); i++ {
		if i+2 < len(r) && r[i+1] == '-' {
			if r[i+2] < r[i] {
				return nil, false
			}
			for c := r[i]; c <= r[i+2]; c++ {
				out = append(out, c)
			}
			i += 2
			continue
		}
		out = append(out, r[i])
	}
	return out, len(out) <= 256
}

package policy

import "mvdan.cc/sh/v3/syntax"

// timeout $T go test ./...: a duration from a variable. The word before
// the command timeout runs cannot split into that command when it is
// quoted ("$T", "${T:-60}s"), nor when it is unquoted and the line never
// sets the variable (its value is the environment's, which the coder
// cannot change between commands): the command after it is what runs and
// is judged. Every other word before the command (an option's value, a
// substitution, a variable the line sets, reads into or exports, $IFS)
// still asks (dynamicWrapperOption).

// durationFromVariable reports whether the only dynamic word among the
// wrapper's options and operands is timeout's DURATION written as above.
func (x *cmdCtx) durationFromVariable(args []word, r wrapRead) bool {
	if programBase(r.name) != "timeout" || r.kind != wrapPlain || x.call == nil || r.n >= len(r.rest) {
		return false
	}
	for _, w := range r.rest[:r.n] {
		if !w.static {
			return false // an option's value
		}
	}
	// args is a suffix of the call's words when nothing (a brace, env -S)
	// made words of its own; find the duration's syntax there.
	off := len(x.call.Args) - len(args)
	if off < 0 {
		return false
	}
	for i, a := range args {
		d := decodeWord(x.call.Args[off+i], x.c.home)
		if d.val != a.val || d.static != a.static {
			return false
		}
	}
	return x.c.durationWord(x.call.Args[off+1+r.n], false)
}

// durationWord: digits and a unit, $NAME, ${NAME} or ${NAME:-digits},
// with every unquoted variable one the line never sets.
func (c *checkEnv) durationWord(w *syntax.Word, quoted bool) bool {
	var part func(p syntax.WordPart, quoted bool) bool
	part = func(p syntax.WordPart, quoted bool) bool {
		switch p := p.(type) {
		case *syntax.Lit:
			return numericValue(p.Value) || p.Value == "s" || p.Value == "m" || p.Value == "h" || p.Value == "d"
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if !part(q, true) {
					return false
				}
			}
			return true
		case *syntax.ParamExp:
			if p.Param == nil || !validName(p.Param.Value) || p.Excl || p.Length || p.Width || p.Index != nil ||
				p.Slice != nil || p.Repl != nil || p.Names != 0 || p.NestedParam != nil {
				return false
			}
			if p.Exp != nil && (p.Exp.Op != syntax.DefaultUnsetOrNull && p.Exp.Op != syntax.DefaultUnset ||
				p.Exp.Word == nil || !numericValue(p.Exp.Word.Lit())) {
				return false
			}
			return quoted || onlyReadsVar(c.line, p.Param.Value) && onlyReadsVar(c.line, "IFS")
		}
		return false
	}
	for _, p := range w.Parts {
		if !part(p, quoted) {
			return false
		}
	}
	return len(w.Parts) > 0
}

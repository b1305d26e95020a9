package policy

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Parameter operators over the line's own bindings (bindprop.go), found
// by polcorp12 spelling a command's name: ${x:1} of x=Zgit, ${X,,} of
// X=GIT, ${!v2} of v2=v1 and v1=git, ${a[$((2-1))]} of a=(x git), git${u:-}
// and "${SHELL:-bash}" -c '…'. Each is what bash makes of it: a substring,
// a case change, the variable the value names, an element at an index
// whose arithmetic is plain numbers. A default (${v:-w}, ${v-w}) or an
// alternative (${v:+w}) of a variable the line does not bind is read as
// the variable being unset: bash runs the default, and with an unset
// SHELL "${SHELL:-bash}" -c '…' is bash -c '…'. As for every binding, only
// a deny of the line so written is kept, so a reading that is wrong (SHELL
// set in the environment) can only make the line stricter.

// paramOp is the value of an operator form of p, when it is known.
func (b *binder) paramOp(x *syntax.ParamExp) ([]string, bool) {
	if x.Param == nil || x.Length || x.Width || x.Repl != nil || x.Names != 0 || x.NestedParam != nil || x.Index != nil {
		return nil, false
	}
	name := x.Param.Value
	if name == "@" || name == "*" || len(name) == 1 && name[0] >= '0' && name[0] <= '9' {
		return nil, false
	}
	vals, known := b.vars[name]
	if !known && x.Exp != nil && x.Slice == nil && patternRemoval(x.Exp.Op) {
		vals, known = b.removalBase(name) // paramremove.go: ${PWD%/*}
	}
	val := ""
	if len(vals) > 0 {
		val = vals[0]
	}
	switch {
	case x.Excl:
		if !known || x.Slice != nil || x.Exp != nil {
			return nil, false
		}
		tv, ok := b.vars[val]
		if !ok {
			return nil, false
		}
		if len(tv) == 0 {
			return []string{""}, true
		}
		return tv[:1], true
	case x.Slice != nil && x.Exp == nil:
		if !known {
			return nil, false
		}
		off, ok := b.arith(x.Slice.Offset)
		if !ok || off < 0 {
			return nil, false
		}
		if off > len(val) {
			off = len(val)
		}
		out := val[off:]
		if x.Slice.Length != nil {
			n, ok := b.arith(x.Slice.Length)
			if !ok || n < 0 {
				return nil, false
			}
			if n < len(out) {
				out = out[:n]
			}
		}
		return []string{out}, true
	case x.Exp != nil && x.Slice == nil:
		switch x.Exp.Op {
		case syntax.UpperFirst, syntax.UpperAll, syntax.LowerFirst, syntax.LowerAll:
			if !known || x.Exp.Word != nil || val == "" {
				return []string{val}, known && x.Exp.Word == nil
			}
			switch x.Exp.Op {
			case syntax.UpperAll:
				return []string{strings.ToUpper(val)}, true
			case syntax.LowerAll:
				return []string{strings.ToLower(val)}, true
			case syntax.UpperFirst:
				return []string{strings.ToUpper(val[:1]) + val[1:]}, true
			default:
				return []string{strings.ToLower(val[:1]) + val[1:]}, true
			}
		case syntax.RemSmallSuffix, syntax.RemLargeSuffix, syntax.RemSmallPrefix, syntax.RemLargePrefix:
			if !known {
				return nil, false
			}
			return b.removePattern(x.Exp.Op, val, x.Exp.Word) // paramremove.go
		case syntax.DefaultUnset, syntax.DefaultUnsetOrNull:
			arg, ok := b.lit(x.Exp.Word)
			if !ok {
				return nil, false
			}
			if known && (val != "" || x.Exp.Op == syntax.DefaultUnset) {
				return []string{val}, true
			}
			return []string{arg}, true
		case syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
			arg, ok := b.lit(x.Exp.Word)
			if !ok {
				return nil, false
			}
			if known && (val != "" || x.Exp.Op == syntax.AlternateUnset) {
				return []string{arg}, true
			}
			return []string{""}, true
		}
	}
	return nil, false
}

// arith is the value of an arithmetic expression of plain numbers, + - *
// and parentheses, or of a variable the line binds to a number.
func (b *binder) arith(e syntax.ArithmExpr) (int, bool) {
	switch x := e.(type) {
	case *syntax.Word:
		if len(x.Parts) == 1 {
			if ae, ok := x.Parts[0].(*syntax.ArithmExp); ok {
				return b.arith(ae.X)
			}
		}
		v := x.Lit()
		if vals, ok := b.vars[v]; ok && len(vals) == 1 {
			v = vals[0]
		}
		if !isDigits(v) || len(v) > 6 {
			return 0, false
		}
		n, err := strconv.Atoi(v)
		return n, err == nil
	case *syntax.ParenArithm:
		return b.arith(x.X)
	case *syntax.BinaryArithm:
		l, ok1 := b.arith(x.X)
		r, ok2 := b.arith(x.Y)
		if !ok1 || !ok2 {
			return 0, false
		}
		switch x.Op {
		case syntax.Add:
			return l + r, true
		case syntax.Sub:
			return l - r, true
		case syntax.Mul:
			return l * r, true
		}
	}
	return 0, false
}

package policy

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Parameter operators on a variable whose value the policy knows ($HOME,
// and $TMPDIR inside the sandbox): ${HOME:?}, ${HOME:-/}, ${HOME%/} and
// ${HOME:+x} are what bash expands them to, so `rm -rf ${HOME:?}/` is
// judged as `rm -rf ~/`, not as an unknown argument. The value is known to
// be set and not empty, so a default never applies and an alternative
// always does.

// knownParamOp gives the expansion of p, an operator on a variable whose
// value is known. ok is false for any other form.
func (c *checkEnv) knownParamOp(p *syntax.ParamExp, value string) (string, bool) {
	if p.Slice != nil && p.Exp == nil {
		return sliceValue(p, value)
	}
	if p.Param == nil || p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Names != 0 || p.NestedParam != nil {
		return "", false
	}
	if p.Exp == nil {
		return value, true
	}
	var arg string
	if p.Exp.Word != nil {
		w := decodeWord(p.Exp.Word, c.home)
		if !w.static {
			return "", false
		}
		arg = w.val
	}
	switch p.Exp.Op {
	case syntax.ErrorUnset, syntax.ErrorUnsetOrNull, syntax.DefaultUnset, syntax.DefaultUnsetOrNull,
		syntax.AssignUnset, syntax.AssignUnsetOrNull:
		return value, true // set and not empty: the value itself
	case syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
		return arg, true
	case syntax.RemSmallSuffix, syntax.RemLargeSuffix:
		return trimPattern(value, arg, false, p.Exp.Op == syntax.RemLargeSuffix)
	case syntax.RemSmallPrefix, syntax.RemLargePrefix:
		return trimPattern(value, arg, true, p.Exp.Op == syntax.RemLargePrefix)
	}
	return "", false
}

// trimPattern removes the shortest (or longest) prefix or suffix of v
// that matches the glob pat, as ${v#pat} and ${v%pat} do.
func trimPattern(v, pat string, prefix, longest bool) (string, bool) {
	if _, err := path.Match(pat, ""); err != nil {
		return "", false
	}
	match := func(s string) bool {
		// path.Match's * stops at '/', bash's does not: compare with the
		// slashes replaced when the pattern has no slash of its own.
		ok, _ := path.Match(pat, s)
		if !ok && !strings.Contains(pat, "/") {
			ok, _ = path.Match(pat, strings.ReplaceAll(s, "/", "\x01"))
		}
		return ok
	}
	n := len(v)
	order := make([]int, 0, n+1)
	for i := 0; i <= n; i++ {
		order = append(order, i)
	}
	if longest {
		for i, j := 0, len(order)-1; i < j; i, j = i+1, j-1 {
			order[i], order[j] = order[j], order[i]
		}
	}
	for _, k := range order {
		if prefix && match(v[:k]) {
			return v[k:], true
		}
		if !prefix && match(v[n-k:]) {
			return v[:n-k], true
		}
	}
	return v, true
}

// knownValue is the value of a variable the policy knows without running
// anything: $HOME, and $TMPDIR inside the sandbox (tmpdir.go); "" for any
// other.
func (c *checkEnv) knownValue(name string) string {
	switch name {
	case "HOME":
		return c.home
	case "TMPDIR":
		return c.tmp
	}
	if slices.Contains(c.wsVars, name) {
		return c.ws // CLAUDE_PROJECT_DIR, set by the runner
	}
	return ""
}

// sliceValue is ${NAME:OFFSET} or ${NAME:OFFSET:LENGTH} with literal,
// non-negative numbers: ${HOME:0:1} is "/".
func sliceValue(p *syntax.ParamExp, value string) (string, bool) {
	if p.Param == nil || p.Excl || p.Length || p.Width || p.Index != nil || p.Repl != nil || p.Names != 0 || p.NestedParam != nil {
		return "", false
	}
	num := func(x syntax.ArithmExpr) (int, bool) {
		w, ok := x.(*syntax.Word)
		if !ok || len(w.Parts) != 1 {
			return 0, false
		}
		l, ok := w.Parts[0].(*syntax.Lit)
		if !ok || l.Value == "" || len(l.Value) > 6 || !isDigits(l.Value) {
			return 0, false
		}
		n, err := strconv.Atoi(l.Value)
		return n, err == nil
	}
	off, ok := num(p.Slice.Offset)
	if !ok {
		return "", false
	}
	off = min(off, len(value))
	v := value[off:]
	if p.Slice.Length != nil {
		n, ok := num(p.Slice.Length)
		if !ok {
			return "", false
		}
		v = v[:min(n, len(v))]
	}
	return v, true
}

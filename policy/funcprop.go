package policy

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// What bash runs when the line names its command through a function it
// defined itself (issue 32, polcorp8 spell/function): f() { rm "$@"; };
// f -rf ~/.ssh runs rm -rf ~/.ssh, and function g { git push -f "$@"; };
// g origin main is a forced push. The definition alone asks
// (shell.function) and its body is judged where it stands, but the body's
// "$@" and "$1" are only known at the call. judgeFunctions extends the
// binding propagation of bindprop.go to functions: every call of a
// function the line defines is written out as the function's body with
// the call's words in place of "$@", "$*" and "$1"…"$9", and the line so
// written is judged again. As there, only a deny is taken: a reading that
// is wrong makes the line stricter, never lets anything through.

// funcsLikely is the cheap test for a line that may define a function.
func funcsLikely(text string) bool {
	return strings.Contains(text, "()") || strings.Contains(text, "function")
}

// judgeFunctions re-judges the line with its functions' calls written out
// as their bodies and keeps only the denies. cw is where the line starts.
func (c *checkEnv) judgeFunctions(s *src, f *syntax.File, cw cwds) {
	bodies := map[string]string{}
	syntax.Walk(f, func(n syntax.Node) bool {
		if d, ok := n.(*syntax.FuncDecl); ok && d.Name != nil && d.Body != nil {
			bodies[d.Name.Value] = s.slice(d.Body.Cmd)
		}
		return true
	})
	if len(bodies) == 0 {
		return
	}
	var edits []bindEdit
	syntax.Walk(f, func(n syntax.Node) bool {
		if _, ok := n.(*syntax.FuncDecl); ok {
			return false // a definition runs nothing; its body is judged where it stands
		}
		call, ok := n.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		body, ok := bodies[call.Args[0].Lit()]
		if !ok {
			return true
		}
		args := make([]string, 0, len(call.Args)-1)
		for _, a := range call.Args[1:] {
			args = append(args, s.slice(a))
		}
		edits = append(edits, bindEdit{uint(call.Pos().Offset()), uint(call.End().Offset()), "{ " + withPositional(body, args) + "\n}"})
		return false
	})
	if len(edits) == 0 {
		return
	}
	b := &binder{text: s.text, edits: edits}
	out, ok := b.apply()
	if !ok || out == s.text {
		return
	}
	before := len(c.parts)
	sub := cw.copy()
	c.shell(out, &sub, s.depth+1, "function")
	kept := c.parts[:before]
	for _, p := range c.parts[before:] {
		if p.Decision == Deny {
			kept = append(kept, p)
		}
	}
	c.parts = kept
}

// withPositional writes args into body in place of its positional
// parameters: "$@" and $@ (and $*) become every argument, "$N" and $N the
// N-th or nothing.
func withPositional(body string, args []string) string {
	all := strings.Join(args, " ")
	pairs := []string{`"$@"`, all, `"${@}"`, all, `"$*"`, all, `"${*}"`, all, `$@`, all, `${@}`, all, `$*`, all, `${*}`, all}
	for i := 1; i <= 9; i++ {
		v := ""
		if i <= len(args) {
			v = args[i-1]
		}
		n := strconv.Itoa(i)
		pairs = append(pairs, `"$`+n+`"`, v, `"${`+n+`}"`, v, `${`+n+`}`, v, `$`+n, v)
	}
	return strings.NewReplacer(pairs...).Replace(body)
}

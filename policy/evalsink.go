package policy

import (
	"fmt"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Bash evaluates a value as code in places no word of the line shows: an
// arithmetic context evaluates a variable's value as an expression, and an
// array subscript in that value runs its $( ) (x='a[$(id)]'; ls $((x))
// runs id); ${x@P} expands x as a prompt, $( ) included; ${!x}, a nameref
// and [[ -v $x ]] resolve a name the value spells, subscript included. The
// command that runs is then in a string no reader of the line sees as one.
// So is one in an extended pattern: the parser keeps @( ), !( ), +( ), *( )
// and ?( ) as text, and bash, which parses [[ … == PATTERN ]] as if extglob
// were on, expands the $( ) in it ([[ a == @(a|$(id)) ]] runs id).

// EvalSink names the first place in the line where bash would evaluate a
// value as code that the line does not spell out, or "" when there is none
// (or the line cannot be parsed: Line says so). Arithmetic on literal
// numbers, ${a[0]}, ${a[@]}, ${!prefix*} and ${!a[@]} are not sinks.
func (r *Reading) EvalSink() string {
	if r == nil || r.f == nil || r.err != nil {
		return ""
	}
	_, why := evalSinkIn(r.f)
	return why
}

// evalSinkIn is EvalSink's walk of a parsed line: the first sink's node
// and why it is one.
func evalSinkIn(f *syntax.File) (syntax.Node, string) {
	var at syntax.Node
	var why string
	in := inertNames(f) // inertvalues.go: i=0; echo $((i+1))
	syntax.Walk(f, func(n syntax.Node) bool {
		if why != "" {
			return false
		}
		if why = evalSinkOf(n, in); why != "" {
			at = n
		}
		return why == ""
	})
	return at, why
}

// judgeEvalSinks: the engine's reading of a line judges the commands it
// spells, and a value bash evaluates as code is in none of them
// (x='a[$(rm -rf ~)]'; echo $((x)) runs rm). Such a place asks, in and
// out of the sandbox, naming it; checkShell gives this reason before
// another ask's.
func (c *checkEnv) judgeEvalSinks(s *src, f *syntax.File) {
	if n, why := evalSinkIn(f); why != "" {
		c.addPart(Part{Text: s.slice(n), Via: "arith", Dynamic: true, Decision: Ask, Rule: RuleShellArith,
			Reason: evalSinkReason + why})
	}
}

const evalSinkReason = "bash evaluates a value as code here: "

func isEvalSink(p Part) bool { return strings.HasPrefix(p.Reason, evalSinkReason) }

func evalSinkOf(n syntax.Node, in inertSet) string {
	const arith = "bash evaluates a variable's value in arithmetic as an expression, and a subscript in it runs its $( )"
	switch n := n.(type) {
	case *syntax.ArithmExp:
		if !in.arithm(n.X) {
			return "$(( )) holds a name or expansion: " + arith
		}
	case *syntax.ArithmCmd:
		if !in.arithm(n.X) {
			return "(( )) holds a name or expansion: " + arith
		}
	case *syntax.CStyleLoop:
		for _, x := range []syntax.ArithmExpr{n.Init, n.Cond, n.Post} {
			if x != nil && !in.arithm(x) {
				return "for (( )) holds a name or expansion: " + arith
			}
		}
	case *syntax.LetClause:
		return "let evaluates its words as arithmetic: " + arith
	case *syntax.ParamExp:
		return paramSink(n)
	case *syntax.Assign:
		if n.Index != nil && !literalSubscript(n.Index) {
			return fmt.Sprintf("the subscript of %s[…]= is evaluated as arithmetic: %s", litOf(n.Name), arith)
		}
	case *syntax.ArrayElem:
		if n.Index != nil && !literalSubscript(n.Index) {
			return "an array element's [subscript]= is evaluated as arithmetic: " + arith
		}
	case *syntax.DeclClause:
		return declSink(n)
	case *syntax.ExtGlob:
		if p := litOf(n.Pattern); strings.ContainsAny(p, "$`") || strings.Contains(p, "<(") || strings.Contains(p, ">(") {
			return fmt.Sprintf("the extended pattern %s%s) holds an expansion the parser keeps as text: bash expands it in [[ ]], $( ) included", n.Op, p)
		}
	case *syntax.BinaryTest:
		switch n.Op {
		case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
			if !numericTestWord(n.X) || !numericTestWord(n.Y) {
				return fmt.Sprintf("[[ … %s … ]] on a name or expansion: %s", n.Op, arith)
			}
		}
	case *syntax.UnaryTest:
		if n.Op == syntax.TsVarSet || n.Op == syntax.TsRefVar {
			w, ok := n.X.(*syntax.Word)
			if !ok || !plainName.get().MatchString(w.Lit()) {
				return fmt.Sprintf("[[ %s … ]] on a name that is not a plain literal: bash resolves the name the value spells, and runs the $( ) of a subscript in it", n.Op)
			}
		}
	}
	return ""
}

func paramSink(p *syntax.ParamExp) string {
	name := litOf(p.Param)
	switch {
	case p.Exp != nil && p.Exp.Op == syntax.OtherParamOps && p.Exp.Word != nil && strings.Contains(p.Exp.Word.Lit(), "P"):
		return fmt.Sprintf("${%s@P} expands the value as a prompt, which runs the $( ) in it", name)
	case p.Excl && p.Names == 0 && !allSubscript(p.Index):
		return fmt.Sprintf("${!%s} expands the variable the value names, and runs the $( ) of a subscript in that name", name)
	case p.Index != nil && !literalSubscript(p.Index):
		return fmt.Sprintf("the subscript of ${%s[…]} is evaluated as arithmetic: bash evaluates a variable's value in it as an expression, and a subscript in that runs its $( )", name)
	case p.Slice != nil && (!literalArithm(p.Slice.Offset) || (p.Slice.Length != nil && !literalArithm(p.Slice.Length))):
		return fmt.Sprintf("the offset of ${%s:…} is evaluated as arithmetic: bash evaluates a variable's value in it as an expression, and a subscript in that runs its $( )", name)
	}
	return ""
}

// declSink: a nameref resolves the name its value spells, -i makes every
// later assignment arithmetic, and a word the line does not spell may be
// either (declare "$x").
func declSink(d *syntax.DeclClause) string {
	variant := litOf(d.Variant)
	if variant == "nameref" {
		return "nameref makes a name whose value is resolved as a variable name, subscript and its $( ) included"
	}
	for _, a := range d.Args {
		if !a.Naked || a.Value == nil {
			continue
		}
		w := a.Value.Lit()
		if w == "" {
			return fmt.Sprintf("%s is given a word the line does not spell out, which may be an option or a name with a subscript", variant)
		}
		if (strings.HasPrefix(w, "-") || strings.HasPrefix(w, "+")) && strings.ContainsAny(w, "in") {
			return fmt.Sprintf("%s %s makes a variable whose value bash evaluates (an integer or a nameref): its subscripts run their $( )", variant, w)
		}
	}
	return ""
}

// Built on first use, not at start-up (lazy.go).
var (
	plainName  = lazy[*regexp.Regexp]{build: func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\[[0-9]+\])?$`) }}
	numericLit = lazy[*regexp.Regexp]{build: func() *regexp.Regexp { return regexp.MustCompile(`^([0-9]+|0[xX][0-9a-fA-F]+)$`) }}
)

// literalArithm says whether x holds only literal numbers and operators.
func literalArithm(x syntax.ArithmExpr) bool { return inertSet(nil).arithm(x) }

// arithm says whether x holds only literal numbers, operators and names
// whose every value is a number (inertvalues.go).
func (in inertSet) arithm(x syntax.ArithmExpr) bool {
	switch x := x.(type) {
	case nil:
		return true
	case *syntax.BinaryArithm:
		return in.arithm(x.X) && in.arithm(x.Y)
	case *syntax.UnaryArithm:
		return in.arithm(x.X)
	case *syntax.ParenArithm:
		return in.arithm(x.X)
	case *syntax.Word:
		return numericLit.get().MatchString(x.Lit()) || in.word(x)
	}
	return false
}

// literalSubscript: a literal number, or @ or * (every element).
func literalSubscript(x syntax.ArithmExpr) bool {
	return allSubscript(x) || literalArithm(x)
}

func allSubscript(x syntax.ArithmExpr) bool {
	w, ok := x.(*syntax.Word)
	return ok && (w.Lit() == "@" || w.Lit() == "*")
}

func numericTestWord(x syntax.TestExpr) bool {
	w, ok := x.(*syntax.Word)
	return ok && numericLit.get().MatchString(strings.TrimPrefix(w.Lit(), "-"))
}

func litOf(l *syntax.Lit) string {
	if l == nil {
		return ""
	}
	return l.Value
}

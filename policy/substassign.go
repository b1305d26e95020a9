package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A read-only substitution kept in a variable, and static items fed to
// xargs.
//
// `BRANCH=$(git branch --show-current) && git log origin/$BRANCH..HEAD`
// is `git log origin/$(git branch --show-current)..HEAD` with a name in
// between: each later $BRANCH is judged exactly as the substitution written
// in its place would be (subst.go: the producer's stand-in, and its class
// limits which programs may take it). Why that is safe:
//
//   - the value is the producer's output and nothing else: the name is
//     assigned exactly once in the whole line, by a plain NAME=$(…) (no
//     +=, array, index, export or declare), and named nowhere else (no
//     read, unset, printf -v, declare -n, for NAME, function);
//   - the use surely runs after the assignment succeeded: the assignment is
//     the leftmost command of an && chain and every use lies to its right
//     in that chain with only && between, so a use never sees the value
//     the environment gave the name, nor the empty value of a producer
//     that failed;
//   - the producer is one command with static arguments that prints a
//     value, a revision or a toolchain location (one word, never an
//     option: git refuses ref names that start with '-' or hold blanks or
//     glob characters), or names the workspace holds, which only the
//     programs subst.go lists as taking names may take; a here-document's
//     text (which could be any words) is never bound.
//
// `echo ./internal/... | xargs go vet` runs `go vet ./internal/...`: when
// the stage before xargs is echo or printf '%s\n' with static items made
// only of characters xargs neither splits nor unquotes, xargs has no option
// but -r, and neither stage redirects its input or output, xargs is a
// wrapper whose command is judged with those items appended (wrappers.go),
// exactly the words it will run.

// bindSubstAssigns records, for every use of a variable bound by an
// eligible NAME=$(producer) (see above), the producer's stand-in.
func (c *checkEnv) bindSubstAssigns(f *syntax.File) {
	if len(f.Stmts) == 0 {
		return
	}
	type cand struct {
		w    word
		uses []*syntax.ParamExp
	}
	cands := map[string]*cand{}
	// The assignments of the candidates: their producer's words are
	// static arguments of a known program, which name no variable (the
	// -d of `d=$(mktemp -d)` is not the name d).
	producers := map[*syntax.Assign]bool{}
	var chain func(st *syntax.Stmt)
	chain = func(st *syntax.Stmt) {
		b, ok := st.Cmd.(*syntax.BinaryCmd)
		if !ok || b.Op != syntax.AndStmt || st.Negated || st.Background || st.Coprocess || len(st.Redirs) > 0 {
			return
		}
		// The leftmost command of a chain of && only.
		left := b.X
		for {
			lb, ok := left.Cmd.(*syntax.BinaryCmd)
			if !ok {
				break
			}
			if lb.Op != syntax.AndStmt || left.Negated || left.Background || len(left.Redirs) > 0 {
				return
			}
			left = lb.X
		}
		name, w, ok := c.substAssign(left)
		if !ok {
			return
		}
		producers[left.Cmd.(*syntax.CallExpr).Assigns[0]] = true
		k := &cand{w: w}
		// Uses: the right side of every && on the way down to it.
		for at := st; at != left; {
			ab := at.Cmd.(*syntax.BinaryCmd)
			syntax.Walk(ab.Y, func(n syntax.Node) bool {
				if p, ok := n.(*syntax.ParamExp); ok && p.Param != nil && p.Param.Value == name {
					k.uses = append(k.uses, p)
				}
				return true
			})
			at = ab.X
		}
		if cands[name] != nil {
			cands[name] = &cand{} // two candidates: neither
			return
		}
		cands[name] = k
	}
	for _, st := range f.Stmts {
		chain(st)
	}
	if len(cands) == 0 {
		return
	}
	// Assigned once, and named only in $NAME / ${NAME} uses.
	count := map[string]int{}
	plain := map[*syntax.ParamExp]bool{}
	names := map[*syntax.Lit]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.FuncDecl:
			cands = map[string]*cand{}
			return false
		case *syntax.Assign:
			if x.Name != nil {
				count[x.Name.Value]++
				names[x.Name] = true
			}
			if producers[x] {
				return false
			}
		case *syntax.ParamExp:
			if x.Param != nil {
				names[x.Param] = true
				if x.Excl || x.Length || x.Width || x.Index != nil || x.Slice != nil || x.Repl != nil || x.Names != 0 || x.Exp != nil || x.NestedParam != nil {
					count[x.Param.Value] += 2
				}
				plain[x] = true
			}
		case *syntax.WordIter:
			count[x.Name.Value] += 2
		case *syntax.Lit:
			if names[x] {
				return true
			}
			for name := range cands {
				if containsWord(x.Value, name) {
					count[name] += 2
				}
			}
		}
		return true
	})
	for name, k := range cands {
		if count[name] != 1 || len(k.uses) == 0 {
			continue
		}
		if c.substVars == nil {
			c.substVars = map[*syntax.ParamExp]word{}
		}
		for _, p := range k.uses {
			if plain[p] {
				c.substVars[p] = k.w
			}
		}
	}
}

// substAssign reads a statement that is only NAME=$(producer), or
// NAME="$(producer)", with a producer eligible for binding.
func (c *checkEnv) substAssign(st *syntax.Stmt) (string, word, bool) {
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) > 0 || len(call.Assigns) != 1 || len(st.Redirs) > 0 || st.Negated || st.Background || st.Coprocess {
		return "", word{}, false
	}
	a := call.Assigns[0]
	if a.Name == nil || a.Append || a.Naked || a.Array != nil || a.Index != nil || a.Value == nil || len(a.Value.Parts) != 1 {
		return "", word{}, false
	}
	part := a.Value.Parts[0]
	if dq, ok := part.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
		part = dq.Parts[0]
	}
	cs, ok := part.(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 {
		return "", word{}, false
	}
	if _, text := heredocText(cs); text {
		return "", word{}, false
	}
	class, standIn := c.producer(cs)
	_, one := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	switch {
	case class == substNames:
	case (class == substValue || class == substRev || class == substToolchain) && one:
	default:
		// a pipeline may print nothing and succeed; free text may be
		// several words once unquoted
		return "", word{}, false
	}
	return a.Name.Value, word{val: standIn, static: true, subst: class}, true
}

// feedXargs records every xargs stage fed by echo or printf with plain
// static items (see above).
func (c *checkEnv) feedXargs(f *syntax.File) {
	syntax.Walk(f, func(n syntax.Node) bool {
		b, ok := n.(*syntax.BinaryCmd)
		if !ok || b.Op != syntax.Pipe {
			return true
		}
		stages := pipeStages(b)
		for i := 1; i < len(stages); i++ {
			prod, ok1 := stages[i-1].Cmd.(*syntax.CallExpr)
			cons, ok2 := stages[i].Cmd.(*syntax.CallExpr)
			if !ok1 || !ok2 || len(stages[i-1].Redirs) > 0 || len(stages[i].Redirs) > 0 || len(prod.Assigns) > 0 {
				continue
			}
			argv := c.staticArgv(cons)
			if len(argv) < 2 || argv[0] != "xargs" || len(argv) != len(cons.Args) {
				continue
			}
			if argv[1] == "-r" || argv[1] == "--no-run-if-empty" {
				argv = argv[1:]
			}
			if strings.HasPrefix(argv[1], "-") {
				continue
			}
			if items, ok := c.plainItems(prod); ok {
				if c.xargsFed == nil {
					c.xargsFed = map[*syntax.CallExpr][]word{}
				}
				c.xargsFed[cons] = items
			}
		}
		return true
	})
}

// plainItems returns the items echo or printf '%s\n' prints when every one
// is static and made of characters xargs neither splits nor unquotes.
func (c *checkEnv) plainItems(call *syntax.CallExpr) ([]word, bool) {
	var argv []string
	for _, a := range call.Args {
		w := decodeWord(a, c.home)
		if !w.static || w.pattern {
			return nil, false
		}
		argv = append(argv, w.val)
	}
	if len(argv) < 2 {
		return nil, false
	}
	var items []string
	switch argv[0] {
	case "echo":
		items = argv[1:]
		if strings.HasPrefix(items[0], "-") {
			return nil, false
		}
	case "printf":
		if argv[1] != `%s\n` && argv[1] != "%s " && argv[1] != `%s\n\n` {
			return nil, false
		}
		items = argv[2:]
	default:
		return nil, false
	}
	var out []word
	for _, it := range items {
		if !constSafe(it) {
			return nil, false
		}
		out = append(out, word{val: it, static: true})
	}
	return out, len(out) > 0
}

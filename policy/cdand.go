package policy

import "mvdan.cc/sh/v3/syntax"

// `cd build && cmake .. && make`: a command after && runs only when every
// command before it succeeded, so after a cd in an && list the rest of the
// list runs in the directory cd went to, not in the one it left (a failed
// cd leaves the old one, which is why cwds keeps both after `cd x;`). The
// narrowing holds inside the list alone: after it, a `;` command may run
// in any directory some prefix of the list left.

// andList flattens an && list (bash's && is left-associative) into its
// commands, in order; nil when st is not one.
func andList(st *syntax.Stmt) []*syntax.Stmt {
	b, ok := st.Cmd.(*syntax.BinaryCmd)
	if !ok || b.Op != syntax.AndStmt || len(st.Redirs) > 0 || st.Background || st.Negated {
		return nil
	}
	var out []*syntax.Stmt
	if l := andList(b.X); l != nil {
		out = l
	} else {
		out = []*syntax.Stmt{b.X}
	}
	return append(out, b.Y)
}

// isCd reports a plain cd or pushd command.
func isCd(st *syntax.Stmt) bool {
	if st == nil || len(st.Redirs) > 0 || st.Background || st.Negated {
		return false
	}
	x, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(x.Assigns) > 0 || len(x.Args) == 0 {
		return false
	}
	name := x.Args[0].Lit()
	return name == "cd" || name == "pushd"
}

// hasCd reports whether an && list holds a cd before its last command.
func hasCd(list []*syntax.Stmt) bool {
	for _, st := range list[:len(list)-1] {
		if isCd(st) {
			return true
		}
	}
	return false
}

// andAfterCd judges an && list holding a cd: each command in the
// directories the commands before it leave when they all succeed (cd
// records where it goes as it is judged), then the set is every directory
// the list may leave, a failed prefix included.
func (c *checkEnv) andAfterCd(s *src, list []*syntax.Stmt, cw *cwds) {
	cur := cw.copy()
	var seen []cwds
	for _, st := range list {
		seen = append(seen, cur.copy())
		c.cdTo, c.cdKnown = nil, false
		c.stmt(s, st, &cur)
		if isCd(st) && !cur.unknown && c.cdKnown && len(c.cdTo) > 0 {
			cur = cwds{dirs: append([]string(nil), c.cdTo...)}
		}
	}
	seen = append(seen, cur)
	for _, w := range seen {
		for _, d := range w.dirs {
			cw.add(d)
		}
		cw.unknown = cw.unknown || w.unknown
	}
}

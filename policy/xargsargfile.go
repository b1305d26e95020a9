package policy

import "mvdan.cc/sh/v3/syntax"

// xargs reading its items from a process substitution (issue 32,
// polcorp6 deny recall): `xargs -a <(echo ~/.ssh) rm -rf` is `rm -rf
// ~/.ssh`, as `echo ~/.ssh | xargs rm -rf` is (substassign.go feedXargs).
// When -a or --arg-file names a <(echo …) or <(printf '%s\n' …) of plain
// static items, the command is judged with those items.

// xargsArgFileItems returns the items of the xargs call's -a <(echo …).
func (x *cmdCtx) xargsArgFileItems() ([]word, bool) {
	if x.call == nil {
		return nil, false
	}
	args := x.call.Args
	for i := 1; i+1 < len(args); i++ {
		if v := args[i].Lit(); v != "-a" && v != "--arg-file" {
			continue
		}
		w := args[i+1]
		if len(w.Parts) != 1 {
			return nil, false
		}
		ps, ok := w.Parts[0].(*syntax.ProcSubst)
		if !ok || ps.Op != syntax.CmdIn || len(ps.Stmts) != 1 || len(ps.Stmts[0].Redirs) > 0 {
			return nil, false
		}
		call, ok := ps.Stmts[0].Cmd.(*syntax.CallExpr)
		if !ok || len(call.Assigns) > 0 {
			return nil, false
		}
		return x.c.plainItems(call)
	}
	return nil, false
}

// xargsItems returns the items an xargs call is fed: by echo or printf
// through a pipe (substassign.go), when every word of the call was
// decoded, or by -a <(echo …).
func (x *cmdCtx) xargsItems(rest []word) ([]word, bool) {
	if items, ok := x.c.xargsFed[x.call]; ok && len(rest)+1 == len(x.call.Args) {
		return items, true
	}
	return x.xargsArgFileItems()
}

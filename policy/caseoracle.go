package policy

import "mvdan.cc/sh/v3/syntax"

// caseOracle reports a case subject that expands a variable the line did
// not bind (`case "$ANTHROPIC_API_KEY" in sk-a*) echo y;; esac`): like
// `[ "$KEY" = … ]` and `env | grep -q KEY=…`, each answer tells a piece of
// the value. A loop variable bound to static words, a variable whose value
// is harmless (decodeWord's benignVars) and a command substitution (its
// command is judged on its own) are not.
func (c *checkEnv) caseOracle(w *syntax.Word) bool {
	if w == nil {
		return false
	}
	if d := decodeWord(w, c.home); d.static || d.benignVars {
		return false
	}
	found := false
	syntax.Walk(w, func(n syntax.Node) bool {
		switch p := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			return false
		case *syntax.ParamExp:
			if p.Param != nil {
				if _, bound := c.bind[p.Param.Value]; !bound {
					found = true
				}
			}
		}
		return true
	})
	return found
}

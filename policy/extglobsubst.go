package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The parser keeps an extended pattern (@( ), !( ), +( ), *( ), ?( )) as
// text, and bash runs the $( ), backticks, <( ) and >( ) in it where it
// parses one ([[ a == @(a|$(cat /etc/shadow)) ]]). EvalSink names such a
// pattern and the engine asks for it, but an ask counts for nothing where
// only a deny does (mcp's unrestricted mode): the command inside was never
// judged, so its own deny never counted. judgeExtGlobs parses the
// pattern's text with the same parser, as a here-document's body (the
// expansions of a pattern are those of a word; quotes in it only make the
// reading stricter: a quoted '$(x)' is judged as if it ran), and judges
// each command substitution's text as a line of its own: a deny in it is
// a deny of the line.

// judgeExtGlobs judges the commands in the extended patterns of f.
func (c *checkEnv) judgeExtGlobs(s *src, f *syntax.File, cw *cwds) {
	if !strings.Contains(s.text, "(") {
		return
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		g, ok := n.(*syntax.ExtGlob)
		if !ok || g.Pattern == nil {
			return true
		}
		if p := g.Pattern.Value; strings.ContainsAny(p, "$`") || strings.Contains(p, "<(") || strings.Contains(p, ">(") {
			c.extGlobCommands(p, cw, s.depth)
		}
		return false
	})
}

// extGlobCommands judges the commands pattern runs, each as a line.
func (c *checkEnv) extGlobCommands(pattern string, cw *cwds, depth int) {
	// A process substitution runs its command as a $( ) does; the
	// here-document reading knows only $( ), so <( and >( read as it.
	text := strings.NewReplacer("<(", "$(", ">(", "$(").Replace(pattern)
	p := parserPool.Get().(*syntax.Parser)
	doc, err := p.Document(strings.NewReader(text))
	parserPool.Put(p)
	if err != nil {
		c.addPart(Part{Text: pattern, Via: "extglob", Decision: Ask, Rule: RuleShellParse,
			Reason: "the extended pattern's expansions cannot be parsed: " + err.Error()})
		return
	}
	syntax.Walk(doc, func(n syntax.Node) bool {
		cs, ok := n.(*syntax.CmdSubst)
		if !ok {
			return true
		}
		if len(cs.Stmts) > 0 {
			a, b := cs.Stmts[0].Pos().Offset(), cs.Stmts[len(cs.Stmts)-1].End().Offset()
			if int(b) <= len(text) && a <= b {
				sub := cw.copy()
				c.shell(text[a:b], &sub, depth+1, "extglob")
			}
		}
		return false
	})
}

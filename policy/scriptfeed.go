package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// awk and sed reading their program from standard input whose text the
// line spells: `awk -f /dev/stdin <<< 'BEGIN{system("rm -rf ~")}'`,
// `printf '1e rm -rf ~\n' | sed -f - go.mod`, `awk -f - <<'EOF' … EOF`.
// The read itself asks (unseen.go: the text is a stream); when the text
// is a here-string, a here-document, or echo/printf of static words piped
// in, the program is in plain sight, and the line is judged again with the
// program written inline where -f was (awk 'PROG' data.txt), as bash would
// hand it, keeping only a deny (polcorp13: both spellings asked while the
// inline programs are denied). Nothing here allows: the parts it adds can
// only make the line stricter. make's makefile so fed is makefeed.go's.

// judgeScriptFeeds judges, for every awk or sed reading its program from
// a stream the line spells, the command with that program inline.
func (c *checkEnv) judgeScriptFeeds(s *src, f *syntax.File, cw *cwds) {
	if !strings.Contains(s.text, "awk") && !strings.Contains(s.text, "sed") {
		return
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		if st, ok := n.(*syntax.Stmt); ok {
			if call, ok := st.Cmd.(*syntax.CallExpr); ok {
				if t := stdinText(st); t != nil {
					c.judgeInlineScript(s, call, []string{*t}, cw)
				}
			}
			return true
		}
		b, ok := n.(*syntax.BinaryCmd)
		if !ok || b.Op != syntax.Pipe && b.Op != syntax.PipeAll {
			return true
		}
		stages := pipeStages(b)
		for i := 1; i < len(stages); i++ {
			cons, ok := stages[i].Cmd.(*syntax.CallExpr)
			if !ok || c.scriptFromStdin(cons) == nil {
				continue
			}
			prod, ok := stages[i-1].Cmd.(*syntax.CallExpr)
			if !ok {
				continue
			}
			var words []word
			for _, a := range prod.Args {
				words = append(words, decodeWord(a, c.home))
			}
			if texts, ok := producedText(words, stdinText(stages[i-1])); ok { // writethenrun.go
				c.judgeInlineScript(s, cons, texts, cw)
			}
		}
		return true
	})
}

// judgeInlineScript judges call (an awk or sed reading its program from
// standard input) with each of texts written inline as its program.
func (c *checkEnv) judgeInlineScript(s *src, call *syntax.CallExpr, texts []string, cw *cwds) {
	argv := c.scriptFromStdin(call)
	if argv == nil {
		return
	}
	for _, t := range texts {
		var b strings.Builder
		for i, a := range argv {
			if i > 0 {
				b.WriteByte(' ')
			}
			if a == "\x00" {
				a = t
			}
			b.WriteString(shellQuote(a))
		}
		c.shellDenyOnly(s, b.String(), cw, "a program of "+argv[0]+" read from standard input") // findfeed.go
	}
}

// scriptFromStdin returns, for an awk or sed (of static words) given its
// program as standard input (-f -, -f /dev/stdin, --file=/dev/stdin,
// -f-), its words with the -f option and its value replaced by one "\x00",
// the place of the program; nil for any other command.
func (c *checkEnv) scriptFromStdin(call *syntax.CallExpr) []string {
	argv := c.staticArgv(call) // dumpenv.go
	if len(argv) == 0 || len(argv) != len(call.Args) {
		return nil
	}
	switch unseenProgram(argv[0]) {
	case "awk", "gawk", "mawk", "nawk", "sed", "gsed":
	default:
		return nil
	}
	for i := 1; i < len(argv); i++ {
		v := argv[i]
		if v == "--" {
			return nil
		}
		n := 0
		switch {
		case (v == "-f" || v == "--file") && i+1 < len(argv) && namesStdin(argv[i+1]):
			n = 2
		case strings.HasPrefix(v, "--file=") && namesStdin(v[len("--file="):]),
			strings.HasPrefix(v, "-f") && !strings.HasPrefix(v, "--") && namesStdin(v[2:]):
			n = 1
		}
		if n > 0 {
			out := append(append(append([]string{}, argv[:i]...), "\x00"), argv[i+n:]...)
			return out
		}
	}
	return nil
}

package policy

import (
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// make reading its makefile from standard input or a process
// substitution whose text the line spells: `printf 'x:\n\trm -rf ~\n' |
// make -f -`, `make -f /dev/stdin <<< $'all:\n\tgit push -f'`, `make -f -
// <<'EOF' … EOF`, `make -f <(printf 'all:\n\trm -rf ~\n')`. The read itself
// asks (unseen.go: the text is a stream); when the producer is echo,
// printf of static words, or a here-document or here-string, the
// makefile is in plain sight, and its recipes and $(shell …) calls are
// shell commands make runs: each is judged, and a deny of any denies the
// line (polcorp11: seven spellings of destructive commands fed to make -f
// - were asked, while the same text fed to sh is denied). Nothing here
// allows: the parts it adds can only make the line stricter.

// judgeMakefileFeeds judges, for every make reading its makefile from a
// stream the line spells, the shell commands of that makefile.
func (c *checkEnv) judgeMakefileFeeds(s *src, f *syntax.File, cw *cwds) {
	if !strings.Contains(s.text, "make") {
		return
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		if st, ok := n.(*syntax.Stmt); ok {
			if call, ok := st.Cmd.(*syntax.CallExpr); ok && c.makeReadsStdin(call) {
				if t := stdinText(st); t != nil {
					c.judgeMakefileText(s, *t, cw)
				}
			}
			if call, ok := st.Cmd.(*syntax.CallExpr); ok {
				for _, prod := range c.makeProcSubstFiles(call) {
					c.judgeProducedMakefile(s, prod, cw)
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
			if !ok || !c.makeReadsStdin(cons) {
				continue
			}
			c.judgeProducedMakefile(s, stages[i-1], cw)
		}
		return true
	})
}

// judgeProducedMakefile judges the makefile the statement st prints, when
// it is in plain sight (echo, printf of static words, cat of a
// here-document).
func (c *checkEnv) judgeProducedMakefile(s *src, st *syntax.Stmt, cw *cwds) {
	prod, ok := st.Cmd.(*syntax.CallExpr)
	if !ok {
		return
	}
	var words []word
	for _, a := range prod.Args {
		words = append(words, decodeWord(a, c.home))
	}
	texts, ok := producedText(words, stdinText(st)) // writethenrun.go
	if !ok {
		return
	}
	for _, t := range texts {
		c.judgeMakefileText(s, t, cw)
	}
}

// makeProcSubstFiles returns the statements of the process substitutions
// make reads as its makefile: make -f <(printf 'all:\n\t…').
func (c *checkEnv) makeProcSubstFiles(call *syntax.CallExpr) []*syntax.Stmt {
	argv := c.staticArgv(call) // dumpenv.go
	if len(argv) == 0 || len(argv) != len(call.Args) {
		return nil
	}
	switch unseenProgram(argv[0]) {
	case "make", "gmake", "bmake":
	default:
		return nil
	}
	var out []*syntax.Stmt
	for i := 1; i+1 < len(call.Args); i++ {
		switch argv[i] {
		case "-f", "--file", "--makefile":
		default:
			continue
		}
		next := call.Args[i+1]
		if len(next.Parts) != 1 {
			continue
		}
		if ps, ok := next.Parts[0].(*syntax.ProcSubst); ok && ps.Op == syntax.CmdIn && len(ps.Stmts) == 1 {
			out = append(out, ps.Stmts[0])
		}
	}
	return out
}

// makeReadsStdin reports whether call is make (gmake, bmake) given its
// makefile as standard input: -f -, -f /dev/stdin, -f /dev/fd/0, --file=-,
// -f- and the like.
func (c *checkEnv) makeReadsStdin(call *syntax.CallExpr) bool {
	argv := c.staticArgv(call) // dumpenv.go
	if len(argv) == 0 {
		return false
	}
	switch unseenProgram(argv[0]) {
	case "make", "gmake", "bmake":
	default:
		return false
	}
	for i := 1; i < len(argv); i++ {
		v := argv[i]
		if v == "--" {
			return false
		}
		for _, o := range []string{"-f", "--file", "--makefile"} {
			switch {
			case v == o && i+1 < len(argv) && namesStdin(argv[i+1]):
				return true
			case strings.HasPrefix(o, "--") && strings.HasPrefix(v, o+"=") && namesStdin(v[len(o)+1:]):
				return true
			case o == "-f" && strings.HasPrefix(v, "-f") && !strings.HasPrefix(v, "--") && namesStdin(v[2:]):
				return true
			}
		}
	}
	return false
}

// makeVarRef is a make variable reference $(NAME) or ${NAME}: the
// environment's variable of that name when the makefile sets none.
var makeVarRef = lazy[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]`)
}}

// judgeMakefileText judges the shell commands of the makefile text: its
// recipe lines (a tab first, or after "target: ;") and its $(shell …)
// calls, each as make hands it to the shell ($$ is $, $(HOME) is $HOME),
// keeping only denies.
func (c *checkEnv) judgeMakefileText(s *src, text string, cw *cwds) {
	for _, cmd := range makefileCommands(text) {
		c.shellDenyOnly(s, cmd, cw, "a recipe of a makefile read from standard input") // findfeed.go
	}
}

// makefileCommands returns the shell commands of a makefile's text.
func makefileCommands(text string) []string {
	var out []string
	for _, l := range strings.Split(strings.ReplaceAll(text, "\\\n", " "), "\n") {
		switch {
		case strings.HasPrefix(l, "\t"):
			out = append(out, strings.TrimLeft(strings.TrimSpace(l), "@-+"))
		case strings.Contains(l, ":") && strings.Contains(l, ";"):
			if _, after, ok := strings.Cut(l, ";"); ok {
				out = append(out, strings.TrimLeft(strings.TrimSpace(after), "@-+"))
			}
		}
		for rest := l; ; {
			i := strings.Index(rest, "$(shell ")
			if i < 0 {
				break
			}
			body, depth := rest[i+len("$(shell "):], 1
			end := len(body)
			for j, ch := range body {
				if ch == '(' {
					depth++
				} else if ch == ')' {
					if depth--; depth == 0 {
						end = j
						break
					}
				}
			}
			out = append(out, body[:end])
			rest = body[end:]
		}
	}
	for i, cmd := range out {
		cmd = strings.ReplaceAll(cmd, "$$", "\x00")
		cmd = makeVarRef.get().ReplaceAllString(cmd, "$${$1}")
		out[i] = strings.ReplaceAll(cmd, "\x00", "$")
	}
	return out
}

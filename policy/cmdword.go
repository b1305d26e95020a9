package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A command word made by a substitution whose output is in plain sight:
// `echo rm` -rf ~, $(printf rm) -rf ~, "$(echo rm)" -rf ~. bash runs the
// words the output splits into, so they are judged as if written out. Any
// other substitution as the command word still asks (shell.dynamic-command).

// substCommandWord gives the words a command word made of one substitution
// expands to; ok is false unless its output is known without running it.
func (c *checkEnv) substCommandWord(w *syntax.Word) ([]word, bool) {
	if len(w.Parts) != 1 {
		return nil, false
	}
	quoted := false
	part := w.Parts[0]
	if dq, ok := part.(*syntax.DblQuoted); ok {
		if len(dq.Parts) != 1 {
			return nil, false
		}
		part, quoted = dq.Parts[0], true
	}
	cs, ok := part.(*syntax.CmdSubst)
	if !ok {
		return nil, false
	}
	out, ok := c.staticOutput(cs)
	if !ok {
		return nil, false
	}
	out = strings.TrimRight(out, "\n")
	if quoted {
		return []word{{val: out, static: true}}, true
	}
	fields := strings.Fields(out) // the default IFS
	if len(fields) == 0 {
		return nil, false
	}
	ws := make([]word, len(fields))
	for i, f := range fields {
		if strings.ContainsAny(f, "*?[") {
			return nil, false // bash would glob it
		}
		ws[i] = word{val: f, static: true}
	}
	return ws, true
}

// staticOutput is what a substitution of one echo or printf with static
// arguments prints.
func (c *checkEnv) staticOutput(cs *syntax.CmdSubst) (string, bool) {
	if len(cs.Stmts) != 1 {
		return "", false
	}
	st := cs.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(st.Redirs) > 0 || len(call.Assigns) > 0 || st.Negated || st.Background || len(call.Args) == 0 {
		return "", false
	}
	args := make([]string, len(call.Args))
	for i, a := range call.Args {
		w := decodeWord(a, c.home)
		if !w.static || w.pattern {
			return "", false
		}
		args[i] = w.val
	}
	switch programBase(args[0]) {
	case "echo":
		return echoOutput(args[1:])
	case "printf":
		return printfOutput(args[1:])
	}
	return "", false
}

// echoOutput is bash's echo: leading -n/-e/-E options; escapes only
// without -e, where they print as written.
func echoOutput(args []string) (string, bool) {
	nl := true
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && strings.Trim(args[0][1:], "neE") == "" {
		if strings.Contains(args[0], "e") {
			return "", false
		}
		if strings.Contains(args[0], "n") {
			nl = false
		}
		args = args[1:]
	}
	out := strings.Join(args, " ")
	if nl {
		out += "\n"
	}
	return out, true
}

// printfOutput is printf for a format of plain text, \n \t \\ escapes and
// %s, reused while arguments remain.
func printfOutput(args []string) (string, bool) {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return "", false
	}
	format, args := args[0], args[1:]
	var b strings.Builder
	for {
		used := 0
		for i := 0; i < len(format); i++ {
			ch := format[i]
			switch {
			case ch == '\\' && i+1 < len(format):
				i++
				switch format[i] {
				case 'n':
					b.WriteByte('\n')
				case 't':
					b.WriteByte('\t')
				case '\\':
					b.WriteByte('\\')
				default:
					return "", false
				}
			case ch == '%' && i+1 < len(format):
				i++
				switch format[i] {
				case '%':
					b.WriteByte('%')
				case 's':
					if used < len(args) {
						b.WriteString(args[used])
					}
					used++
				default:
					return "", false
				}
			case ch == '%' || ch == '\\':
				return "", false
			default:
				b.WriteByte(ch)
			}
		}
		if used == 0 || used >= len(args) {
			return b.String(), true
		}
		args = args[used:]
	}
}

// argvOf is the values of words and whether every one is static.
func argvOf(words []word) ([]string, bool) {
	argv := make([]string, len(words))
	static := true
	for i, w := range words {
		argv[i] = w.val
		static = static && w.static
	}
	return argv, static
}

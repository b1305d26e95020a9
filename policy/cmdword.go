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

// echoOutput is bash's echo (echoText) where nothing is left to escapes:
// with -e it says it cannot tell.
func echoOutput(args []string) (string, bool) {
	for _, a := range args {
		if len(a) < 2 || a[0] != '-' || strings.Trim(a[1:], "neE") != "" {
			break
		}
		if strings.Contains(a, "e") {
			return "", false
		}
	}
	return echoText(args), true
}

// printfOutput is printf (printfText) for a format of plain text, \n \t
// \\ escapes and %s: any other escape or conversion says it cannot tell.
func printfOutput(args []string) (string, bool) {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return "", false
	}
	f := args[0]
	for i := 0; i < len(f); i++ {
		switch f[i] {
		case '\\':
			if i++; i >= len(f) || strings.IndexByte("nt\\", f[i]) < 0 {
				return "", false
			}
		case '%':
			if i++; i >= len(f) || (f[i] != 's' && f[i] != '%') {
				return "", false
			}
		}
	}
	return printfText(f, args[1:]), true
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

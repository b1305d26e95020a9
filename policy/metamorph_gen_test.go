package policy

import (
	"fmt"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The metamorphic generator: alternative spellings of one command line
// that bash runs as the same program with the same arguments (or a
// superset of what the line runs). Every transform names where it comes
// from: a section of the bash manual (GNU Bash Reference Manual, "§")
// or a public bypass report against an agent's permission system.
// TestMetamorphicSpellingsNeverAllow (metamorph_test.go) runs it.

// mmLine is one parsed input line.
type mmLine struct {
	text  string
	file  *syntax.File
	calls []*syntax.CallExpr // simple commands with a plain literal command word, in order
	home  string             // the home directory tilde expands to
}

// mmTransform makes variants of a line.
type mmTransform struct {
	name, source string
	apply        func(l mmLine) []string
}

var mmPlainWord = regexp.MustCompile(`^[A-Za-z0-9_.+-]+$`)

// mmShellBuiltins are bash builtins and keywords: `builtin` runs the first,
// a path (/usr/bin/X) or env/nice/timeout would run a different program.
var mmShellBuiltins = map[string]bool{"cd": true, "echo": true, "eval": true, "source": true, ".": true, "export": true,
	"printf": true, "read": true, "set": true, "declare": true, "exec": true, "command": true, "type": true, "alias": true,
	"unset": true, "local": true, "readonly": true, "typeset": true, "mapfile": true, "trap": true, "hash": true, "enable": true,
	"builtin": true, "shopt": true, "ulimit": true, "umask": true, "kill": true, "true": true, "false": true, ":": true,
	"test": true, "[": true, "let": true, "wait": true, "jobs": true, "fg": true, "bg": true, "pushd": true, "popd": true,
	"time": true, "if": true, "for": true, "while": true, "until": true, "case": true, "function": true, "coproc": true, "!": true}

func mmParse(text, home string) (mmLine, bool) {
	f, err := syntax.NewParser().Parse(strings.NewReader(text), "")
	if err != nil {
		return mmLine{}, false
	}
	l := mmLine{text: text, file: f, home: home}
	syntax.Walk(f, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 && len(l.calls) < 3 && mmPlainWord.MatchString(c.Args[0].Lit()) {
			l.calls = append(l.calls, c)
		}
		return true
	})
	return l, true
}

func mmOff(n syntax.Node) (int, int) { return int(n.Pos().Offset()), int(n.End().Offset()) }

// splice replaces text[at:end] with repl.
func (l mmLine) splice(at, end int, repl string) string { return l.text[:at] + repl + l.text[end:] }

// onWord makes one variant per call by rewriting its command word; fn
// returns "" to skip a word.
func onWord(fn func(w string) string) func(mmLine) []string {
	return func(l mmLine) []string {
		var out []string
		for _, c := range l.calls {
			w := c.Args[0].Lit()
			if r := fn(w); r != "" {
				at, end := mmOff(c.Args[0])
				out = append(out, l.splice(at, end, r))
			}
		}
		return out
	}
}

// onProgram is onWord for words that name a program on PATH (not a
// builtin or keyword, no slash, not an assignment).
func onProgram(fn func(w string) string) func(mmLine) []string {
	return onWord(func(w string) string {
		if mmShellBuiltins[w] || strings.ContainsAny(w, "/=") {
			return ""
		}
		return fn(w)
	})
}

// bindWord makes one variant per call by prefixing the line with a
// binding (pre, given the word) and writing the call's word as use.
func bindWord(pre func(w string) string, use string) func(mmLine) []string {
	return func(l mmLine) []string {
		var out []string
		for _, c := range l.calls {
			w := c.Args[0].Lit()
			if mmShellBuiltins[w] {
				continue
			}
			at, end := mmOff(c.Args[0])
			out = append(out, pre(w)+l.splice(at, end, use))
		}
		return out
	}
}

// wholeLine wraps the whole line.
func wholeLine(fn func(text string) string) func(mmLine) []string {
	return func(l mmLine) []string {
		if r := fn(l.text); r != "" {
			return []string{r}
		}
		return nil
	}
}

// oneLine is wholeLine for lines without a newline (a heredoc or a
// multi-line script cannot be closed with `; }` on its last line).
func oneLine(fn func(text string) string) func(mmLine) []string {
	return func(l mmLine) []string {
		if strings.Contains(l.text, "\n") || strings.Contains(l.text, "#") {
			return nil
		}
		return []string{fn(l.text)}
	}
}

// simpleCall is the line's only command when it is one plain simple
// command (no assignments, redirections, pipes or lists).
func (l mmLine) simpleCall() (*syntax.CallExpr, bool) {
	if len(l.file.Stmts) != 1 {
		return nil, false
	}
	st := l.file.Stmts[0]
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(st.Redirs) > 0 || st.Background || st.Negated || len(c.Assigns) > 0 || len(l.calls) == 0 || l.calls[0] != c {
		return nil, false
	}
	return c, true
}

// onSimple applies fn to the line's only simple command: its word and
// the text of its arguments.
func onSimple(fn func(l mmLine, w, args string, c *syntax.CallExpr) []string) func(mmLine) []string {
	return func(l mmLine) []string {
		c, ok := l.simpleCall()
		if !ok || len(c.Args) < 2 {
			return nil
		}
		at, _ := mmOff(c.Args[1])
		_, end := mmOff(c.Args[len(c.Args)-1])
		return fn(l, c.Args[0].Lit(), l.text[at:end], c)
	}
}

// onArgs makes a variant per literal argument (of every call) that fn
// rewrites; fn gets the program and the word.
func onArgs(fn func(prog, arg string) []string) func(mmLine) []string {
	return func(l mmLine) []string {
		var out []string
		for _, c := range l.calls {
			prog := c.Args[0].Lit()
			for _, a := range c.Args[1:] {
				at, end := mmOff(a)
				lit := a.Lit()
				if lit == "" {
					lit = l.text[at:end] // a word with expansions: the rewriters check what they accept
				}
				for _, r := range fn(prog, lit) {
					out = append(out, l.splice(at, end, r))
				}
			}
		}
		return out
	}
}

// onCallArgs rewrites a call's argument list as a whole: fn gets the
// program and the literal arguments (every argument must be a literal)
// and returns replacement argument lists.
func onCallArgs(fn func(prog string, args []string) [][]string) func(mmLine) []string {
	return func(l mmLine) []string {
		var out []string
		for _, c := range l.calls {
			if len(c.Args) < 2 {
				continue
			}
			var args []string
			for _, a := range c.Args[1:] {
				if a.Lit() == "" {
					args = nil
					break
				}
				args = append(args, a.Lit())
			}
			if args == nil {
				continue
			}
			at, _ := mmOff(c.Args[1])
			_, end := mmOff(c.Args[len(c.Args)-1])
			for _, r := range fn(c.Args[0].Lit(), args) {
				out = append(out, l.splice(at, end, strings.Join(r, " ")))
			}
		}
		return out
	}
}

// mmNoArgFlags are, per program, short options that take no value: a
// bundle of them may be reordered or split (getopt, POSIX Utility Syntax
// Guideline 5).
var mmNoArgFlags = map[string]string{"rm": "rRfivdI", "cp": "rRfavpnuxP", "mv": "fivnu", "chmod": "Rfvc", "chown": "Rfvch",
	"chgrp": "Rfvch", "shred": "fuvzx", "ln": "sfnvT", "rmdir": "pv", "git": "fdxXnqvuD", "find": "", "unlink": ""}

// mmLongOf are, per program, the long names of short options (GNU
// coreutils and git manuals).
var mmLongOf = map[string]map[byte]string{
	"rm":    {'r': "--recursive", 'R': "--recursive", 'f': "--force", 'v': "--verbose", 'd': "--dir"},
	"cp":    {'r': "--recursive", 'R': "--recursive", 'f': "--force", 'a': "--archive", 'v': "--verbose"},
	"mv":    {'f': "--force", 'v': "--verbose"},
	"chmod": {'R': "--recursive", 'v': "--verbose", 'f': "--silent"},
	"chown": {'R': "--recursive", 'v': "--verbose", 'h': "--no-dereference"},
	"shred": {'u': "--remove", 'z': "--zero", 'f': "--force", 'v': "--verbose"},
	"ln":    {'s': "--symbolic", 'f': "--force", 'n': "--no-dereference"},
	"git":   {'f': "--force", 'n': "--dry-run", 'q': "--quiet", 'v': "--verbose"},
}

// mmExactLongOpts are programs whose option parsers take no
// abbreviation (jq's own parser, Go's flag, clap, cobra, curl): a prefix
// there is an error, not the option.
var mmExactLongOpts = map[string]bool{"jq": true, "gojq": true, "go": true, "cargo": true, "rustc": true, "curl": true,
	"docker": true, "kubectl": true, "gh": true, "terraform": true, "npm": true, "node": true}

// mmDashDash are programs whose operands may follow `--` after the options.
var mmDashDash = map[string]bool{"rm": true, "cp": true, "mv": true, "chmod": true, "chown": true, "chgrp": true, "shred": true,
	"ln": true, "unlink": true, "rmdir": true, "truncate": true, "mkdir": true, "touch": true, "tee": true, "cat": true, "dd": false}

func isBundle(prog, a string) bool {
	flags, ok := mmNoArgFlags[prog]
	if !ok || len(a) < 3 || len(a) > 6 || a[0] != '-' || a[1] == '-' {
		return false
	}
	for i := 1; i < len(a); i++ {
		if !strings.ContainsRune(flags, rune(a[i])) || strings.IndexByte(a[1:i], a[i]) >= 0 {
			return false
		}
	}
	return true
}

func reversed(s string) string {
	b := []byte(s)
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}

// pathVariants are other spellings of one path argument.
func pathVariants(home, a string) []string {
	switch {
	case a == "~":
		return []string{"$HOME", "${HOME}", `"$HOME"`, `"$HOME"/`, "~/", "~/.", home, home + "/", "$HOME/../" + lastElem(home)}
	case strings.HasPrefix(a, "~/"):
		p := a[2:]
		return []string{"$HOME/" + p, "${HOME}/" + p, `"$HOME"/` + p, `"${HOME}/` + p + `"`, "~//" + p, "~/./" + p, home + "/" + p,
			strings.TrimSuffix(a, "/") + "/", "~/" + p + "/."}
	case a == "/":
		return []string{"//", "/.", "/./", "/..", "///"}
	case strings.HasPrefix(a, "/") && !strings.HasPrefix(a, "//"):
		out := []string{"/" + a, strings.TrimSuffix(a, "/") + "/"}
		if i := strings.LastIndex(strings.TrimSuffix(a, "/"), "/"); i > 0 {
			dir := a[:i]
			out = append(out, dir+"/."+a[i:], dir+"/../"+lastElem(dir)+a[i:])
		}
		return out
	case a == "..":
		return []string{"./..", "$PWD/..", "../.", `"$PWD"/..`}
	case a == ".":
		return []string{"./", "$PWD", `"$PWD"`, "./."}
	case strings.HasPrefix(a, "../"):
		return []string{"./" + a, "$PWD/" + a}
	case strings.HasPrefix(a, "$HOME/"):
		return []string{"~/" + a[6:], "${HOME}/" + a[6:]}
	case a == "$HOME":
		return []string{"~", "${HOME}"}
	}
	return nil
}

func lastElem(p string) string {
	p = strings.TrimSuffix(p, "/")
	return p[strings.LastIndex(p, "/")+1:]
}

var mmLiteralArg = regexp.MustCompile(`^[A-Za-z0-9_./:@%+,=-]+$`)

// mmTransforms is the table of transforms, grouped as the issue lists them.
var mmTransforms = []mmTransform{
	// --- quoting inside the command word
	{"word 'single quoted'", "§3.1.2.2 Single Quotes; GuardFall class A (FMXExpress/PasClaw#438)", onWord(func(w string) string { return "'" + w + "'" })},
	{`word "double quoted"`, "§3.1.2.3 Double Quotes", onWord(func(w string) string { return `"` + w + `"` })},
	{"word r''m", "§3.5.9 Quote Removal; GuardFall class A (PasClaw#438): r''m -rf ~", onWord(func(w string) string {
		if len(w) < 2 {
			return ""
		}
		return w[:1] + "''" + w[1:]
	})},
	{`word r""m`, "§3.5.9 Quote Removal; PasClaw#438", onWord(func(w string) string {
		if len(w) < 2 {
			return ""
		}
		return w[:1] + `""` + w[1:]
	})},
	{`word \rm`, "§3.1.2.1 Escape Character; openai/codex#20277 (backslash escapes in unquoted words)", onWord(func(w string) string { return `\` + w })},
	{`word r\m`, "§3.1.2.1 Escape Character; openai/codex#20277", onWord(func(w string) string {
		if len(w) < 2 {
			return ""
		}
		return w[:1] + `\` + w[1:]
	})},
	{`word r\⏎m (continuation inside)`, "§3.1.2.1: a backslash-newline is removed before words are read", onWord(func(w string) string {
		if len(w) < 2 {
			return ""
		}
		return w[:1] + "\\\n" + w[1:]
	})},
	{"word $'rm'", "§3.1.2.4 ANSI-C Quoting; GuardFall class B (PasClaw#438)", onWord(func(w string) string { return "$'" + w + "'" })},
	{`word $'\x72m'`, "§3.1.2.4 ANSI-C Quoting; PasClaw#438: $'\\x72\\x6d'", onWord(func(w string) string { return fmt.Sprintf(`$'\x%02x'`, w[0]) + w[1:] })},
	{`word $'\162m' (octal)`, "§3.1.2.4 ANSI-C Quoting", onWord(func(w string) string { return fmt.Sprintf(`$'\%03o'`, w[0]) + w[1:] })},
	{`word $"rm" (locale)`, "§3.1.2.5 Locale-Specific Translation", onWord(func(w string) string { return `$"` + w + `"` })},
	{"word {rm,}", "§3.5.1 Brace Expansion; issue 32 ({rm,-rf,\"$HOME/.ssh\"})", onWord(func(w string) string { return "{" + w + ",}" })},
	{"word $(echo rm)", "§3.5.4 Command Substitution; danielmiessler/LifeOS#732", onWord(func(w string) string { return "$(echo " + w + ")" })},
	{"word `echo rm`", "§3.5.4 Command Substitution (backquotes); LifeOS#732", onWord(func(w string) string { return "`echo " + w + "`" })},
	{`word "$(printf rm)"`, "§3.5.4 Command Substitution", onWord(func(w string) string { return `"$(printf ` + w + `)"` })},

	// --- program paths and wrappers
	{"/usr/bin/X", "§3.7.2 Command Search and Execution; anthropics/claude-code#92542, openai/codex#20277 (/tmp/cat)", onProgram(func(w string) string { return "/usr/bin/" + w })},
	{"/bin/X", "§3.7.2 Command Search and Execution", onProgram(func(w string) string { return "/bin/" + w })},
	{"/usr/bin/env X", "coreutils env; NousResearch/hermes-agent#58642 (wrapper prefix + binary path)", onProgram(func(w string) string { return "/usr/bin/env " + w })},
	{"env -i X", "coreutils env -i; hermes-agent#58736", onProgram(func(w string) string { return "env -i " + w })},
	{"env -- X", "coreutils env", onProgram(func(w string) string { return "env -- " + w })},
	{"command X", "§4.2 Bash Builtins (command); claude-code#92542", onWord(func(w string) string { return "command " + w })},
	{"command -p X", "§4.2 Bash Builtins (command -p)", onProgram(func(w string) string { return "command -p " + w })},
	{"builtin X", "§4.2 Bash Builtins (builtin); claude-code#92542", onWord(func(w string) string {
		if !mmShellBuiltins[w] || w == "time" || w == "if" || w == "for" || w == "while" || w == "case" || w == "function" || w == "coproc" || w == "!" || w == "until" {
			return ""
		}
		return "builtin " + w
	})},
	{"exec X", "§4.1 Bourne Shell Builtins (exec)", onWord(func(w string) string { return "exec " + w })},
	{"nice X", "coreutils nice; claude-code#92542 (timeout time nice stdbuf nohup command builtin noglob)", onProgram(func(w string) string { return "nice " + w })},
	{"nice -n 5 X", "coreutils nice", onProgram(func(w string) string { return "nice -n 5 " + w })},
	{"timeout 5 X", "coreutils timeout; claude-code#92542", onProgram(func(w string) string { return "timeout 5 " + w })},
	{"timeout -s KILL 5 X", "coreutils timeout", onProgram(func(w string) string { return "timeout -s KILL 5 " + w })},
	{"nohup X", "coreutils nohup; claude-code#92542", onProgram(func(w string) string { return "nohup " + w })},
	{"stdbuf -oL X", "coreutils stdbuf; claude-code#92542", onProgram(func(w string) string { return "stdbuf -oL " + w })},
	{"time X", "§3.2.3 Pipelines (time); claude-code#92542", onWord(func(w string) string { return "time " + w })},
	{"setsid X", "util-linux setsid; CmdNeedle (arXiv 2606.15549): wrappers outside a fixed list", onProgram(func(w string) string { return "setsid " + w })},
	{"ionice -c3 X", "util-linux ionice; claude-code#92542 (any wrapper that execs its arguments)", onProgram(func(w string) string { return "ionice -c3 " + w })},

	// --- variable indirection, aliases, functions
	{"x=rm; $x", "§3.4 Shell Parameters; KiroCrew#905 (bindings inlined before matching)", bindWord(func(w string) string { return "_w=" + w + "; " }, "$_w")},
	{`x=rm; "$x"`, "§3.4 Shell Parameters", bindWord(func(w string) string { return "_w=" + w + "; " }, `"$_w"`)},
	{"x=rm; ${x}", "§3.5.3 Shell Parameter Expansion", bindWord(func(w string) string { return "_w=" + w + "; " }, "${_w}")},
	{"a=(rm); ${a[0]}", "§6.7 Arrays", bindWord(func(w string) string { return "_a=(" + w + "); " }, `"${_a[0]}"`)},
	{"alias", "§6.6 Aliases (expand_aliases; an alias takes effect on the next line read)", bindWord(func(w string) string {
		return "shopt -s expand_aliases\nalias _w='" + w + "'\n"
	}, "_w")},
	{"function wrapper", "§3.3 Shell Functions", bindWord(func(w string) string { return `_w(){ ` + w + ` "$@"; }; ` }, "_w")},
	{"a=(rm -rf ~); \"${a[@]}\"", "§6.7 Arrays", onSimple(func(l mmLine, w, args string, c *syntax.CallExpr) []string {
		return []string{"_a=(" + w + " " + args + "); \"${_a[@]}\""}
	})},
	{"set -- rm -rf ~; \"$@\"", "§4.3.1 The Set Builtin; §3.4.2 Special Parameters", onSimple(func(l mmLine, w, args string, c *syntax.CallExpr) []string {
		return []string{"set -- " + w + " " + args + "; \"$@\""}
	})},
	{"f(){ L; }; f", "§3.3 Shell Functions", wholeLine(func(t string) string { return "_f() {\n" + t + "\n}\n_f" })},
	{"function f { L; }; f", "§3.3 Shell Functions (function keyword)", wholeLine(func(t string) string { return "function _f {\n" + t + "\n}; _f" })},

	// --- blanks and continuations
	{"tab and spaces", "§3.1 Shell Syntax (blank = space or tab)", func(l mmLine) []string {
		var out []string
		for _, c := range l.calls {
			if len(c.Args) > 1 {
				_, end := mmOff(c.Args[0])
				at, _ := mmOff(c.Args[1])
				out = append(out, l.splice(end, at, " \t  "))
			}
		}
		return out
	}},
	{"leading blanks", "§3.1 Shell Syntax", wholeLine(func(t string) string { return " \t " + t })},
	{"${IFS} after word", "§3.5.7 Word Splitting; hermes-agent#56232 (rm${IFS}-rf${IFS}/); Claude Code validateIFSInjection", func(l mmLine) []string {
		var out []string
		for _, c := range l.calls {
			if len(c.Args) > 1 {
				_, end := mmOff(c.Args[0])
				at, _ := mmOff(c.Args[1])
				out = append(out, l.splice(end, at, "${IFS}"))
			}
		}
		return out
	}},
	{"$IFS between every word", "§3.5.7 Word Splitting; hermes-agent#56232", onCallArgs(func(prog string, args []string) [][]string {
		for _, a := range args {
			if !mmLiteralArg.MatchString(a) { // a ~ after ${IFS} is not at a word's start: not expanded
				return nil
			}
		}
		return [][]string{{strings.Join(args, "${IFS}")}}
	})},
	{"line continuation", "§3.1.2.1 Escape Character (backslash-newline)", func(l mmLine) []string {
		var out []string
		for _, c := range l.calls {
			if len(c.Args) > 1 {
				_, end := mmOff(c.Args[0])
				at, _ := mmOff(c.Args[1])
				out = append(out, l.splice(end, at, " \\\n  "))
			}
		}
		return out
	}},

	// --- separators, lists and compound commands
	{"true && L", "§3.2.4 Lists; anthropics/claude-code#4956 (chaining)", wholeLine(func(t string) string { return "true && " + t })},
	{"false || L", "§3.2.4 Lists", wholeLine(func(t string) string { return "false || " + t })},
	{": ; L", "§3.2.4 Lists; claude-code#58424", wholeLine(func(t string) string { return ": ; " + t })},
	{"newline L", "§3.2.4 Lists (newline as ;)", wholeLine(func(t string) string { return "true\n" + t })},
	{"L; true", "§3.2.4 Lists", oneLine(func(t string) string { return t + "; true" })},
	{"L &", "§3.2.4 Lists (asynchronous)", oneLine(func(t string) string { return t + " &" })},
	{"! L", "§3.2.3 Pipelines (!)", wholeLine(func(t string) string { return "! " + t })},
	{"; as newline, && as ;", "§3.2.4 Lists", func(l mmLine) []string {
		var out []string
		if len(l.file.Stmts) > 1 {
			var parts []string
			for _, st := range l.file.Stmts {
				at, end := mmOff(st)
				parts = append(parts, strings.TrimSuffix(strings.TrimSpace(l.text[at:end]), ";"))
			}
			out = append(out, strings.Join(parts, "\n"))
		}
		syntax.Walk(l.file, func(n syntax.Node) bool {
			if b, ok := n.(*syntax.BinaryCmd); ok && b.Op == syntax.AndStmt {
				at := int(b.OpPos.Offset())
				out = append(out, l.splice(at, at+2, ";"), l.splice(at, at+2, "\n"))
			}
			return true
		})
		return out
	}},
	{"( L )", "§3.2.5.3 Grouping Commands; hermes-agent#56242 (subshell/brace-group)", wholeLine(func(t string) string { return "(\n" + t + "\n)" })},
	{"( L ) one line", "§3.2.5.3 Grouping Commands", oneLine(func(t string) string { return "( " + t + " )" })},
	{"{ L; }", "§3.2.5.3 Grouping Commands; anthropics/claude-code#70369 ({ cat foo.txt; })", oneLine(func(t string) string { return "{ " + t + "; }" })},
	{"{ ⏎L⏎}", "§3.2.5.3 Grouping Commands", wholeLine(func(t string) string { return "{\n" + t + "\n}" })},
	{"if true; then L; fi", "§3.2.5.2 Conditional Constructs; gotgenes/pi-packages#741 (control-flow bodies)", wholeLine(func(t string) string { return "if true; then\n" + t + "\nfi" })},
	{"for _ in 1; do L; done", "§3.2.5.1 Looping Constructs", wholeLine(func(t string) string { return "for _ in 1; do\n" + t + "\ndone" })},
	{"case x in *) L;; esac", "§3.2.5.2 Conditional Constructs", wholeLine(func(t string) string { return "case x in\n*)\n" + t + "\n;;\nesac" })},
	{"while true; do L; break; done", "§3.2.5.1 Looping Constructs", wholeLine(func(t string) string { return "while true; do\n" + t + "\nbreak\ndone" })},

	// --- the line as text for another shell
	{"eval 'L'", "§4.1 Bourne Shell Builtins (eval); google-gemini/gemini-cli#5495", wholeLine(func(t string) string { return "eval " + shQuote(t) })},
	{`eval "L"`, "§4.1 (eval); gemini-cli#5495", wholeLine(func(t string) string {
		if strings.ContainsAny(t, "\"$`\\!") {
			return ""
		}
		return `eval "` + t + `"`
	})},
	{"bash -c 'L'", "bash(1) -c; hermes-agent#58736 (sh -c carries the verb)", wholeLine(func(t string) string { return "bash -c " + shQuote(t) })},
	{"sh -c 'L'", "sh(1) -c; hermes-agent#58736", wholeLine(func(t string) string { return "sh -c " + shQuote(t) })},
	{"sh -lc 'L'", "sh(1) -l -c; openai/codex#10920 (commands wrapped in a login shell)", wholeLine(func(t string) string { return "sh -lc " + shQuote(t) })},
	{"bash -lc 'L'", "openai/codex#10920 (the harness's own bash -lc)", wholeLine(func(t string) string { return "bash -lc " + shQuote(t) })},
	{"/bin/zsh -lc 'L'", "openai/codex#10920 (/bin/zsh -lc renders rules useless)", wholeLine(func(t string) string { return "/bin/zsh -lc " + shQuote(t) })},
	{"/bin/bash -c 'L'", "§3.7.2; yonatangross/orchestkit#3021 (/bin/bash defeats ^bash$)", wholeLine(func(t string) string { return "/bin/bash -c " + shQuote(t) })},
	{"bash <<< 'L'", "§3.6.7 Here Strings; orchestkit#3021", wholeLine(func(t string) string { return "bash <<< " + shQuote(t) })},
	{"sh <<< 'L'", "§3.6.7 Here Strings; orchestkit#3021", wholeLine(func(t string) string { return "sh <<< " + shQuote(t) })},
	{"source /dev/stdin <<< 'L'", "§4.1 (source); orchestkit#3021", wholeLine(func(t string) string { return "source /dev/stdin <<< " + shQuote(t) })},
	{"bash <<'EOF' L EOF", "§3.6.6 Here Documents", wholeLine(func(t string) string { return "bash <<'MMEOF'\n" + t + "\nMMEOF" })},
	{"echo 'L' | bash", "§3.2.3 Pipelines; the curl | bash shape", wholeLine(func(t string) string { return "echo " + shQuote(t) + " | bash" })},
	{"printf 'L' | sh", "§3.2.3 Pipelines", wholeLine(func(t string) string { return "printf '%s\\n' " + shQuote(t) + " | sh" })},
	{"bash <(echo 'L')", "§3.5.6 Process Substitution; orchestkit#3021 (a shell reading its script from elsewhere)", wholeLine(func(t string) string { return "bash <(echo " + shQuote(t) + ")" })},
	{"source <(echo 'L')", "§4.1 (source) with §3.5.6 Process Substitution", wholeLine(func(t string) string { return "source <(echo " + shQuote(t) + ")" })},
	{"python3 os.system(argv)", "CmdNeedle (arXiv 2606.15549): another program that runs a shell", wholeLine(func(t string) string {
		return "python3 -c 'import os,sys; os.system(sys.argv[1])' " + shQuote(t)
	})},
	{"script -qc 'L' /dev/null", "util-linux script(1) -c runs the command with a shell", wholeLine(func(t string) string { return "script -qc " + shQuote(t) + " /dev/null" })},
	{"git -c alias.x='!L' x", "git-config(1) alias.*: a value starting with ! runs as a shell command", oneLine(func(t string) string {
		return "git -c " + shQuote("alias.mm=!"+t) + " mm"
	})},
	{"timeout 5 bash -c 'L'", "claude-code#92542 + hermes-agent#58736", wholeLine(func(t string) string { return "timeout 5 bash -c " + shQuote(t) })},
	{"env -S 'L'", "coreutils env --split-string; hermes-agent#58736", onSimple(func(l mmLine, w, args string, c *syntax.CallExpr) []string {
		// env -S splits on blanks and honours quotes and ${VAR} only:
		// no globs, braces, tilde or substitutions, so only plain words
		// mean the same there.
		for _, a := range c.Args[1:] {
			if !mmLiteralArg.MatchString(a.Lit()) {
				return nil
			}
		}
		return []string{"env -S " + shQuote(w+" "+args)}
	})},
	{"echo $(L)", "§3.5.4 Command Substitution; LifeOS#732 ($(rm -rf /))", wholeLine(func(t string) string { return "echo \"$(\n" + t + "\n)\"" })},
	{"echo `L`", "§3.5.4 Command Substitution (backquotes); LifeOS#732", oneLine(func(t string) string {
		if strings.Contains(t, "`") {
			return ""
		}
		return "echo `" + t + "`"
	})},
	{"cat <(L)", "§3.5.6 Process Substitution; claude-code#70369", wholeLine(func(t string) string { return "cat <(\n" + t + "\n)" })},
	{"x=$(L)", "§3.5.4 Command Substitution in an assignment", wholeLine(func(t string) string { return "_x=$(\n" + t + "\n)" })},

	// --- one command spread over xargs, find and braces
	{"brace the whole call", "§3.5.1 Brace Expansion; issue 32", func(l mmLine) []string {
		var out []string
		for _, c := range l.calls {
			if len(c.Args) < 2 || len(c.Assigns) > 0 {
				continue
			}
			var ws []string
			for _, a := range c.Args {
				lit := a.Lit()
				if lit == "" || strings.ContainsAny(lit, "{},*?[") {
					ws = nil
					break
				}
				ws = append(ws, lit)
			}
			if ws == nil {
				continue
			}
			at, _ := mmOff(c.Args[0])
			_, end := mmOff(c.Args[len(c.Args)-1])
			out = append(out, l.splice(at, end, "{"+strings.Join(ws, ",")+"}"))
		}
		return out
	}},
	{"echo last | xargs X", "xargs(1); danielmiessler/LifeOS#732 (find / | xargs rm), carlos-emr/carlos#281", onSimple(func(l mmLine, w, args string, c *syntax.CallExpr) []string {
		last := c.Args[len(c.Args)-1].Lit()
		if last == "" || strings.HasPrefix(last, "-") || len(c.Args) < 3 {
			return nil
		}
		at, _ := mmOff(c.Args[0])
		lat, _ := mmOff(c.Args[len(c.Args)-1])
		head := strings.TrimSpace(l.text[at:lat])
		return []string{"echo " + last + " | xargs " + head, "printf '%s\\0' " + last + " | xargs -0 " + head,
			"echo " + last + " | xargs -I{} " + head + " {}"}
	})},
	{"xargs sh -c", "hermes-agent#58736; orchestkit#3021 (xargs -0 bash -c)", wholeLine(func(t string) string {
		return "echo x | xargs sh -c " + shQuote(t)
	})},
	{"find -exec X {}", "find(1) -exec; hermes-agent#58736, LifeOS#732", onSimple(func(l mmLine, w, args string, c *syntax.CallExpr) []string {
		// find runs the command only on a path that exists: the last
		// argument must be a plain path
		last := c.Args[len(c.Args)-1].Lit()
		if !mmLiteralArg.MatchString(last) && last != "~" && !strings.HasPrefix(last, "~/") || strings.HasPrefix(last, "-") || len(c.Args) < 3 {
			return nil
		}
		at, _ := mmOff(c.Args[0])
		lat, _ := mmOff(c.Args[len(c.Args)-1])
		head := strings.TrimSpace(l.text[at:lat])
		return []string{"find " + last + " -maxdepth 0 -exec " + head + " {} \\;", "find " + last + " -prune -exec " + head + " {} +"}
	})},
	{"find . -exec L", "find(1) -exec", onSimple(func(l mmLine, w, args string, c *syntax.CallExpr) []string {
		if strings.ContainsAny(l.text, ";{}") {
			return nil
		}
		return []string{"find . -maxdepth 0 -exec " + l.text + " \\;"}
	})},

	// --- options
	{"bundle reordered (-rf→-fr)", "getopt(3), POSIX Utility Syntax Guideline 5; anthropics/claude-code#18613 (rm -fr /)", onArgs(func(prog, a string) []string {
		if !isBundle(prog, a) {
			return nil
		}
		return []string{"-" + reversed(a[1:])}
	})},
	{"bundle split (-rf→-r -f)", "POSIX Utility Syntax Guideline 5; claude-code#18613", onArgs(func(prog, a string) []string {
		if !isBundle(prog, a) {
			return nil
		}
		var parts []string
		for _, ch := range a[1:] {
			parts = append(parts, "-"+string(ch))
		}
		return []string{strings.Join(parts, " ")}
	})},
	{"bundle plus a harmless flag (-rfv)", "claude-code#18613 (rm -rfv /)", onArgs(func(prog, a string) []string {
		if !isBundle(prog, a) || prog == "git" || strings.Contains(a, "v") {
			return nil
		}
		return []string{a + "v"}
	})},
	{"short to long (--recursive --force)", "GNU coreutils manual (rm); claude-code#18613 (rm --recursive --force /)", onArgs(func(prog, a string) []string {
		long := mmLongOf[prog]
		if long == nil || len(a) < 2 || a[0] != '-' || a[1] == '-' {
			return nil
		}
		var parts []string
		for i := 1; i < len(a); i++ {
			l, ok := long[a[i]]
			if !ok {
				return nil
			}
			parts = append(parts, l)
		}
		return []string{strings.Join(parts, " ")}
	})},
	{"long option prefix (--recur, --force-w)", "getopt_long(3) unique abbreviations; issue 32 (git push --force-w)", onArgs(func(prog, a string) []string {
		if !strings.HasPrefix(a, "--") || strings.ContainsAny(a, "'\"$`\\") || mmExactLongOpts[prog] {
			return nil
		}
		name, val, hasVal := strings.Cut(a[2:], "=")
		if len(name) < 6 {
			return nil
		}
		suf := ""
		if hasVal {
			suf = "=" + val
		}
		out := []string{"--" + name[:len(name)-2] + suf}
		if i := strings.IndexByte(name, '-'); i > 0 && i+2 < len(name) {
			out = append(out, "--"+name[:i+2]+suf)
		}
		return out
	})},
	{"--opt=val as --opt val", "getopt_long(3) (required arguments)", onArgs(func(prog, a string) []string {
		k, v, ok := strings.Cut(a, "=")
		if !strings.HasPrefix(a, "--") || !ok || v == "" || optionalValue[k] || strings.ContainsAny(a, "'\"$`\\") {
			return nil
		}
		return []string{k + " " + v}
	})},
	{"-- before operands", "POSIX Utility Syntax Guideline 10", onCallArgs(func(prog string, args []string) [][]string {
		if !mmDashDash[prog] {
			return nil
		}
		for i, a := range args {
			if a == "--" {
				return nil
			}
			if !strings.HasPrefix(a, "-") {
				r := append(append(append([]string{}, args[:i]...), "--"), args[i:]...)
				return [][]string{r}
			}
		}
		return nil
	})},
	{"options after operands", "GNU getopt permutes arguments (coreutils)", onCallArgs(func(prog string, args []string) [][]string {
		if !mmDashDash[prog] || len(args) < 2 {
			return nil
		}
		var opts, ops []string
		for _, a := range args {
			if a == "--" {
				return nil
			}
			if strings.HasPrefix(a, "-") {
				opts = append(opts, a)
			} else {
				ops = append(ops, a)
			}
		}
		if len(opts) == 0 || len(ops) == 0 {
			return nil
		}
		return [][]string{append(ops, opts...)}
	})},

	// --- arguments
	{"argument quoted", "§3.1.2.2 Single Quotes", onArgs(func(prog, a string) []string {
		if !mmLiteralArg.MatchString(a) || strings.HasPrefix(a, "-") {
			return nil
		}
		return []string{"'" + a + "'", `"` + a + `"`}
	})},
	{"path spelled otherwise (~, $HOME, //, /., ..)", "§3.5.2 Tilde Expansion, §3.5.3 Parameter Expansion; LifeOS#732 (rm -rf ../../..)", func(l mmLine) []string {
		return onArgs(func(prog, a string) []string { return pathVariants(l.home, a) })(l)
	}},
}

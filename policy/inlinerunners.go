package policy

import (
	"encoding/base64"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// Inline code and shell text handed to programs that are not judged as
// interpreters (issue 32, polcorp6 spell/interp-node, spell/interp-other,
// spell/interp-python): bun -e CODE, deno eval CODE, gdb -ex '!CMD' and
// -ex 'python CODE', lldb -o 'platform shell CMD', make --eval=TEXT, and
// a makefile or justfile read from a here-string or here-document
// (make -f /dev/stdin <<< TEXT). Their own handlers keep asking about the
// form; the code is read by the same recognisers as every interpreter's
// inline code (codeRisks) and the shell lines are judged as shell, so
// what they destroy, leak or publish is denied as it would be written
// plainly. Nothing here allows.

// judgeInlineRunners judges the code or shell text of the forms above.
func (x *cmdCtx) judgeInlineRunners(args []word) {
	if len(args) < 2 {
		return
	}
	prog := filepath.Base(args[0].val)
	rest := args[1:]
	switch prog {
	case "bun":
		if in := inlineCodeOf("bun", rest); in.found && in.static {
			x.codeRisks("bun", in.code)
		}
	case "deno":
		x.denoInline(rest)
	case "make", "gmake":
		x.makeText(prog, rest)
	case "lldb":
		x.gdbShellCommands(prog, rest)
	case "just":
		if x.stdinBuildFile(rest, "-f", "--justfile") {
			x.shellLines(prog+" runs a recipe of its input", justCommands(*x.stdin))
		}
	}
}

// denoInline: deno eval [-p] CODE runs CODE; deno run URL fetches a module
// and runs it, as curl | sh.
func (x *cmdCtx) denoInline(rest []word) {
	verb := rest[0].val
	if verb != "eval" && verb != "run" {
		return
	}
	for _, w := range rest[1:] {
		if strings.HasPrefix(w.val, "-") {
			continue
		}
		if !w.static {
			return
		}
		if verb == "eval" {
			x.codeRisks("deno", w.val)
			return
		}
		if strings.HasPrefix(w.val, "https://") || strings.HasPrefix(w.val, "http://") {
			x.add(Deny, RulePkgRemoteExec, "deno run "+quoteShort(w.val)+" downloads a module and runs it")
		}
		return
	}
}

// makeText judges make --eval=TEXT (-E TEXT) and a makefile read from
// the line's here-string or here-document.
func (x *cmdCtx) makeText(prog string, rest []word) {
	for i, w := range rest {
		text, ok := "", false
		switch {
		case strings.HasPrefix(w.val, "--eval="):
			text, ok = strings.TrimPrefix(w.val, "--eval="), w.static
		case (w.val == "--eval" || w.val == "-E") && i+1 < len(rest):
			text, ok = rest[i+1].val, rest[i+1].static
		}
		if ok {
			cmds, _ := makeCommands(text) // writethenrun.go
			x.shellLines(prog+" --eval runs", cmds)
		}
	}
	if x.stdinBuildFile(rest, "-f", "--file", "--makefile") {
		cmds, _ := makeCommands(*x.stdin)
		x.shellLines(prog+" runs a recipe of its input", cmds)
	}
}

// stdinBuildFile reports an option among opts whose value is the
// standard input (-, /dev/stdin) while the line shows that input.
func (x *cmdCtx) stdinBuildFile(rest []word, opts ...string) bool {
	if x.stdin == nil {
		return false
	}
	for i, w := range rest {
		v := w.val
		for _, o := range opts {
			switch {
			case v == o && i+1 < len(rest):
				v = rest[i+1].val
			case strings.HasPrefix(v, o+"=") && strings.HasPrefix(o, "--"):
				v = v[len(o)+1:]
			case len(o) == 2 && strings.HasPrefix(v, o) && !strings.HasPrefix(v, "--"):
				v = v[2:]
			default:
				continue
			}
			if v == "-" || filepath.Clean(v) == "/dev/stdin" {
				return true
			}
		}
	}
	return false
}

// justCommands are a justfile's recipe lines: the indented lines, without
// just's @ and - prefixes.
func justCommands(text string) []string {
	var out []string
	for _, l := range strings.Split(strings.ReplaceAll(text, "\\\n", " "), "\n") {
		if l != "" && (l[0] == ' ' || l[0] == '\t') {
			if cmd := strings.TrimLeft(l, " \t@-"); cmd != "" {
				out = append(out, cmd)
			}
		}
	}
	return out
}

// shellLines judges each line as the shell would run it.
func (x *cmdCtx) shellLines(via string, lines []string) {
	for i, l := range lines {
		if i == 16 {
			x.add(Ask, RuleUnseenText, via+" more lines than the policy reads")
			return
		}
		sub := x.cw.copy()
		x.c.shell(l, &sub, x.s.depth+1, via)
	}
}

// gdbShellCommands judges the commands gdb and lldb are given on the
// line that run a shell or Python: gdb -ex '!CMD', -ex 'shell CMD',
// -ex 'pipe …', -ex 'python CODE'; lldb -o 'platform shell CMD',
// -o 'script CODE'.
func (x *cmdCtx) gdbShellCommands(name string, args []word) {
	for i, w := range args {
		v := w.val
		cmd := ""
		switch {
		case v == "-ex" || v == "--ex" || v == "-eval-command" || v == "--eval-command" || v == "-iex" || v == "--iex" ||
			v == "-o" || v == "--one-line" || v == "-O" || v == "--one-line-before-file":
			if i+1 < len(args) && args[i+1].static {
				cmd = args[i+1].val
			}
		case strings.HasPrefix(v, "-ex=") || strings.HasPrefix(v, "--ex=") || strings.HasPrefix(v, "--eval-command="):
			_, cmd, _ = strings.Cut(v, "=")
		}
		cmd = strings.TrimSpace(cmd)
		var line string
		switch {
		case strings.HasPrefix(cmd, "!"):
			line = cmd[1:]
		case strings.HasPrefix(cmd, "shell "), strings.HasPrefix(cmd, "platform shell "):
			line = cmd[strings.Index(cmd, "shell ")+len("shell "):]
		case strings.HasPrefix(cmd, "pipe "), strings.HasPrefix(cmd, "| "):
			if _, l, ok := strings.Cut(cmd, "|"); ok && strings.HasPrefix(cmd, "pipe ") {
				line = l
			} else if ok {
				line = strings.TrimPrefix(cmd, "| ")
			}
		case strings.HasPrefix(cmd, "python "), strings.HasPrefix(cmd, "pi "), strings.HasPrefix(cmd, "script "):
			_, code, _ := strings.Cut(cmd, " ")
			x.codeRisks("python3", code)
		}
		if strings.TrimSpace(line) != "" {
			x.shellLines(name+" runs a shell command", []string{line})
		}
	}
}

// jsShellTemplates returns the shell lines JavaScript hands to a shell as
// a tagged template: Bun's $`…` (Bun.$) and zx's $`…`. An interpolation
// naming the home directory is ~, any other a value the line cannot know.
func jsShellTemplates(name, code string) []string {
	switch interpBase(name) {
	case "node", "bun", "deno", "zx":
	default:
		return nil
	}
	out := backquoted(code, "$`", 16)
	for i, t := range out {
		out[i] = templateLine(t)
	}
	return out
}

// templateLine writes a template's ${…} interpolations as the shell text
// they stand for.
func templateLine(t string) string {
	var b strings.Builder
	for {
		i := strings.Index(t, "${")
		if i < 0 {
			b.WriteString(t)
			return b.String()
		}
		b.WriteString(t[:i])
		end := strings.IndexByte(t[i:], '}')
		if end < 0 {
			b.WriteString(unknownCodeValue)
			return b.String()
		}
		if codeNamesHome(t[i+2 : i+end]) {
			b.WriteString("~")
		} else {
			b.WriteString(unknownCodeValue)
		}
		t = t[i+end+1:]
	}
}

// decodedCode returns the text of the base64 literals in code that calls
// a decoder (Python's b64decode, JavaScript's atob and Buffer.from(…,
// 'base64'), Ruby's decode64 and unpack('m'), PHP's base64_decode):
// exec(b64decode("…")) runs that text, which is judged as the code it is.
func decodedCode(code string) []string {
	low := strings.ToLower(code)
	if !strings.Contains(low, "b64decode") && !strings.Contains(low, "base64") && !strings.Contains(low, "atob(") &&
		!strings.Contains(low, "decode64") && !strings.Contains(low, "unpack") {
		return nil
	}
	var out []string
	for _, lit := range allLiterals(code) {
		if len(lit) < 12 || strings.Trim(lit, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-") != "" {
			continue
		}
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
			if b, err := enc.DecodeString(lit); err == nil && utf8.Valid(b) && printable(string(b)) {
				out = append(out, string(b))
				break
			}
		}
		if len(out) == 8 {
			break
		}
	}
	return out
}

// printable reports text made of printing characters and blanks.
func printable(s string) bool {
	for _, r := range s {
		if r < ' ' && r != '\n' && r != '\t' && r != '\r' || r == utf8.RuneError {
			return false
		}
	}
	return s != ""
}

// addInlineRunnerHandlers judges deno eval CODE and bun -e CODE as
// node -e CODE is (interpreter inline code: inside the sandbox a snippet
// that only computes and reads is allowed), and Codex's apply_patch by
// the files its patch writes.
func addInlineRunnerHandlers(handlers map[string]handler) {
	for _, n := range []string{"deno", "bun"} {
		prev, ok := handlers[n]
		if !ok {
			continue
		}
		handlers[n] = func(x *cmdCtx, args []word) {
			code, static, found := evalCodeOf(args)
			if !found {
				prev(x, args)
				return
			}
			if !static {
				x.add(Ask, RuleInterpInline, args[0].val+" runs inline code built from an expansion")
				return
			}
			x.inlineCode(args[0].val, code) // sandboxed.go
		}
	}
	handlers["apply_patch"] = applyPatchCmd
	handlers["applypatch"] = applyPatchCmd
}

// evalCodeOf finds deno eval [opts] CODE and bun -e/--eval/-p CODE.
func evalCodeOf(args []word) (code string, static, found bool) {
	if len(args) < 2 {
		return "", false, false
	}
	if filepath.Base(args[0].val) == "bun" {
		in := inlineCodeOf("bun", args[1:])
		return in.code, in.static, in.found
	}
	if args[1].val != "eval" {
		return "", false, false
	}
	for _, w := range args[2:] {
		switch {
		case w.val == "-p" || w.val == "--print" || w.val == "-q" || w.val == "--quiet" || strings.HasPrefix(w.val, "--ext=") || w.val == "--check":
		case strings.HasPrefix(w.val, "-"):
			return "", false, false // an option the policy does not read: the deno handler judges it
		default:
			return w.val, w.static, true
		}
	}
	return "", false, false
}

// applyPatchCmd: Codex's apply_patch reads a patch (its argument, or
// the here-document it is given) and adds, updates, deletes and moves the
// files it names: each is a write, judged as a file write tool's would be.
func applyPatchCmd(x *cmdCtx, args []word) {
	text, ok := "", false
	switch {
	case len(args) == 2 && args[1].static:
		text, ok = args[1].val, true
	case len(args) == 1 && x.stdin != nil:
		text, ok = *x.stdin, true
	}
	var paths []string
	for _, l := range strings.Split(text, "\n") {
		for _, h := range []string{"*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "} {
			if p, found := strings.CutPrefix(strings.TrimRight(l, "\r"), h); found {
				paths = append(paths, strings.TrimSpace(p))
			}
		}
	}
	if !ok || !strings.Contains(text, "*** Begin Patch") || len(paths) == 0 {
		x.add(Ask, RuleUnknownCommand, "apply_patch with a patch the policy cannot read")
		return
	}
	x.add(Allow, RuleFileWrite, "apply_patch edits the files its patch names")
	for _, p := range paths {
		x.writeStr(p)
	}
}

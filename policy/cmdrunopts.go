package policy

import "strings"

// Options and macros that hand a program a command line to run
// (polcorp13, issue 32): git difftool -x/--extcmd CMD, ssh -o 'Match exec
// CMD', mvn exec:exec -Dexec.executable=PROG -Dexec.args=ARGS, m4's
// esyscmd(CMD)/syscmd(CMD) in the text the line feeds it, cmake -P
// /dev/stdin fed execute_process(COMMAND …), jshell fed
// Runtime.getRuntime().exec(…)/new ProcessBuilder(…), bundled vi flags
// (ex -sc CMD, vim -esc CMD) and git --work-tree=DIR given a command that
// rewrites the tree. Each wraps the program's handler, whose judgment
// stands (these programs ask); the command named is judged as a shell line
// as well, so a line that is denied on its own is denied here, and a
// command the line does not spell (a variable, a substitution) asks.

// addCmdRunOptHandlers wraps the handlers of the programs above.
func addCmdRunOptHandlers(h map[string]handler) {
	// A name without a handler is left alone (./mvnw is judged through
	// mvn's), but m4's, which has none.
	wrap := func(name string, extra func(x *cmdCtx, args []word)) {
		prev, ok := h[name]
		if !ok && name != "m4" && name != "gm4" {
			return
		}
		h[name] = func(x *cmdCtx, args []word) {
			if ok {
				prev(x, args)
			} else {
				x.unknownRunner(args[0].val, args[1:])
			}
			extra(x, args)
		}
	}
	wrap("git", gitRunOpts)
	for _, n := range []string{"ssh", "scp", "sftp"} {
		wrap(n, sshMatchExec)
	}
	for _, n := range []string{"mvn", "mvnw"} {
		wrap(n, mvnExecExecutable)
	}
	for _, n := range []string{"m4", "gm4"} {
		wrap(n, m4Syscmd)
	}
	wrap("cmake", cmakeStdinScript)
	wrap("jshell", jshellProcess)
	for _, n := range vimNames.words {
		wrap(n, vimBundledFlags)
	}
}

// runLine judges text, the command line an option of what names, as a
// shell line; text the line does not spell asks.
func (x *cmdCtx) runLine(w word, what string) {
	if !w.static || w.pattern {
		x.add(Ask, RuleToolExec, what+" runs a command the line does not spell")
		return
	}
	sub := x.cw.copy()
	x.c.shell(strings.TrimSpace(w.val), &sub, x.s.depth+1, what)
}

// optValue returns the value of option o at args[i] (-x VALUE, -xVALUE
// for a short o, --opt=VALUE / --opt VALUE for a long one) and how many
// words it took.
func optValue(args []word, i int, o string) (word, int, bool) {
	v := args[i].val
	switch {
	case v == o:
		if i+1 < len(args) {
			return args[i+1], 2, true
		}
	case strings.HasPrefix(o, "--") && strings.HasPrefix(v, o+"="):
		return word{val: v[len(o)+1:], static: args[i].static}, 1, true
	case !strings.HasPrefix(o, "--") && !strings.HasPrefix(v, "--") && strings.HasPrefix(v, o) && len(v) > len(o):
		return word{val: v[len(o):], static: args[i].static}, 1, true
	}
	return word{}, 0, false
}

// gitWorkTreeWriters rewrite the files of the working tree.
var gitWorkTreeWriters = wordSet{words: []string{"checkout", "switch", "restore", "reset", "clean", "stash", "merge", "pull",
	"rebase", "cherry-pick", "revert", "rm", "mv", "apply", "am", "read-tree", "checkout-index", "worktree", "sparse-checkout"}}

// gitRunOpts: git difftool -x/--extcmd CMD runs CMD for every file, and a
// working tree named by --work-tree that a tree-rewriting command writes
// is written.
func gitRunOpts(x *cmdCtx, args []word) {
	var trees []word
	i := 1
	for i < len(args) {
		v := args[i].val
		if w, n, ok := optValue(args, i, "--work-tree"); ok {
			trees = append(trees, w)
			i += n
			continue
		}
		if v == "-C" || v == "-c" || v == "--git-dir" || v == "--namespace" || v == "--config-env" || v == "--super-prefix" || v == "--attr-source" {
			i += 2
			continue
		}
		if !strings.HasPrefix(v, "-") {
			break
		}
		i++
	}
	if i >= len(args) {
		return
	}
	sub, sargs := args[i].val, args[i+1:]
	if gitWorkTreeWriters.has(sub) {
		for _, t := range trees {
			x.write(t)
		}
	}
	if sub != "difftool" {
		return
	}
	for j := 0; j < len(sargs); j++ {
		if sargs[j].val == "--" {
			return
		}
		for _, o := range []string{"-x", "--extcmd"} {
			if w, n, ok := optValue(sargs, j, o); ok {
				x.runLine(w, "git difftool "+o)
				j += n - 1
				break
			}
		}
	}
}

// sshMatchExec: ssh -o 'Match exec "CMD"' runs CMD locally to decide
// whether the block applies, as ProxyCommand and LocalCommand run theirs.
func sshMatchExec(x *cmdCtx, args []word) {
	for i := 1; i < len(args); i++ {
		w, n, ok := optValue(args, i, "-o")
		if !ok {
			continue
		}
		i += n - 1
		o := strings.ToLower(w.val)
		if strings.HasPrefix(strings.TrimSpace(o), "match") && strings.Contains(o, "exec") {
			x.add(Deny, RuleToolExec, "ssh -o "+w.val+" runs a local program")
			if at := strings.Index(o, "exec"); at >= 0 {
				cmd := strings.TrimSpace(w.val[at+len("exec"):])
				if lit, ok := firstLiteral(cmd); ok && strings.HasPrefix(cmd, `"`) {
					cmd = lit
				}
				x.runLine(word{val: cmd, static: w.static}, "ssh Match exec")
			}
		}
		if k := strings.TrimSpace(strings.SplitN(strings.SplitN(o, "=", 2)[0], " ", 2)[0]); k == "proxycommand" || k == "localcommand" || k == "knownhostscommand" {
			x.add(Deny, RuleToolExec, "ssh -o "+w.val+" runs a local program")
		}
	}
}

// mvnExecExecutable: exec:exec -Dexec.executable=PROG -Dexec.args=ARGS
// runs PROG ARGS. exec:java ignores exec.executable, and a program given
// without arguments keeps mvn's ask.
func mvnExecExecutable(x *cmdCtx, args []word) {
	var exe, eargs *word
	goal := false
	for i := 1; i < len(args); i++ {
		if v := args[i].val; v == "exec:exec" || strings.HasPrefix(v, "org.codehaus.mojo:exec-maven-plugin:") && strings.HasSuffix(v, ":exec") {
			goal = true
		}
		w, n, ok := optValue(args, i, "-D")
		if !ok {
			continue
		}
		i += n - 1
		k, v, _ := strings.Cut(w.val, "=")
		val := word{val: v, static: w.static}
		switch k {
		case "exec.executable":
			exe = &val
		case "exec.args", "exec.arguments":
			eargs = &val
		}
	}
	if !goal || exe == nil || eargs == nil {
		return // mvn's own ask stands (a bare interpreter reads Maven's input)
	}
	// exec.args is split at spaces and quotes, as a shell splits it
	line := word{val: shellQuote(exe.val) + " " + eargs.val, static: exe.static && eargs.static}
	x.runLine(line, args[0].val+" -Dexec.executable")
}

// m4Syscmd: esyscmd(CMD) and syscmd(CMD) in the text the line feeds m4
// run CMD.
func m4Syscmd(x *cmdCtx, args []word) {
	if x.stdin == nil {
		return
	}
	eachCall(*x.stdin, []string{"esyscmd(", "syscmd("}, func(a string) bool {
		depth, end := 0, -1
		for i := 0; i < len(a) && end < 0; i++ {
			switch a[i] {
			case '(':
				depth++
			case ')':
				if depth == 0 {
					end = i
				}
				depth--
			}
		}
		if end < 0 {
			end = len(a)
		}
		cmd := strings.TrimSpace(a[:end])
		if strings.HasPrefix(cmd, "`") && strings.HasSuffix(cmd, "'") { // m4's quotes
			cmd = cmd[1 : len(cmd)-1]
		}
		x.runLine(word{val: cmd, static: true}, "m4 esyscmd")
		return true
	})
}

// cmakeStdinScript: cmake -P /dev/stdin (or -) fed a script in plain
// sight runs the COMMANDs of its execute_process and exec_program calls.
func cmakeStdinScript(x *cmdCtx, args []word) {
	if x.stdin == nil {
		return
	}
	fed := false
	for i := 1; i < len(args); i++ {
		if w, _, ok := optValue(args, i, "-P"); ok && namesStdin(w.val) {
			fed = true
		}
	}
	if !fed {
		return
	}
	for _, call := range []string{"execute_process(", "exec_program("} {
		cmakeCalls(x, call)
	}
}

// cmakeCalls judges the COMMANDs of every call in the script fed to
// cmake -P; exec_program's first argument is its program.
func cmakeCalls(x *cmdCtx, call string) {
	eachCall(*x.stdin, []string{call}, func(a string) bool {
		if end := strings.IndexByte(a, ')'); end >= 0 {
			a = a[:end]
		}
		var cmd []string
		flush := func() {
			if len(cmd) > 0 {
				x.runLine(word{val: strings.Join(cmd, " "), static: true}, "cmake execute_process")
			}
			cmd = nil
		}
		inCmd := call == "exec_program("
		for _, t := range cmakeTokens(a) {
			switch {
			case t == "COMMAND":
				flush()
				inCmd = true
			case t == strings.ToUpper(t) && len(t) > 2 && strings.Trim(t, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") == "":
				flush()
				inCmd = false
			case inCmd:
				cmd = append(cmd, shellQuote(t))
			}
		}
		flush()
		return true
	})
}

// cmakeTokens splits CMake arguments at blanks, keeping "quoted" ones
// whole.
func cmakeTokens(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '"':
			end := strings.IndexByte(s[i+1:], '"')
			if end < 0 {
				out = append(out, s[i+1:])
				return out
			}
			out = append(out, s[i+1:i+1+end])
			i += end + 2
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \t\n\r\"", rune(s[j])) {
				j++
			}
			out = append(out, s[i:j])
			i = j
		}
	}
	return out
}

// jshellProcess: Runtime.getRuntime().exec(…) and new ProcessBuilder(…)
// in the code the line feeds jshell run the program their string
// literals name: sh -c TEXT is judged as TEXT, other lists as the words
// they hold.
func jshellProcess(x *cmdCtx, args []word) {
	if x.stdin == nil {
		return
	}
	eachCall(*x.stdin, []string{".exec(", "processbuilder("}, func(a string) bool {
		lits := allLiterals(a)
		switch {
		case len(lits) == 0:
			x.add(Ask, RuleToolExec, "jshell runs a program the line does not spell")
		case len(lits) >= 3 && setOf("sh", "bash", "zsh", "dash", "/bin/sh", "/bin/bash")[lits[0]] && lits[1] == "-c":
			x.runLine(word{val: lits[2], static: true}, "jshell exec")
		case len(lits) == 1:
			x.runLine(word{val: lits[0], static: true}, "jshell exec")
		default:
			q := make([]string, len(lits))
			for i, l := range lits {
				q[i] = shellQuote(l)
			}
			x.runLine(word{val: strings.Join(q, " "), static: true}, "jshell exec")
		}
		return true
	})
}

// vimBundledFlags: vi's short flags bundled (ex -sc CMD, vim -esc CMD):
// a bundle that ends in c takes the next word as an Ex command.
func vimBundledFlags(x *cmdCtx, args []word) {
	for i := 1; i+1 < len(args); i++ {
		v := args[i].val
		if v == "--" {
			return
		}
		if len(v) > 2 && v[0] == '-' && v[1] != '-' && strings.HasSuffix(v, "c") && strings.Trim(v[1:], "abcdeEhlmMnNrRsSvxXyYZ") == "" {
			if args[i+1].static {
				x.exCommands(args[i+1].val, nil)
			} else {
				x.add(Ask, RuleToolExec, args[0].val+" "+v+" runs an Ex command the line does not spell")
			}
			i++
		}
	}
}

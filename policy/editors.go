package policy

import "strings"

// Editors given commands on their command line: `vim -c 'w! ~/.bashrc'`,
// `vim -es +'%d|w! ~/.profile' <<< …`, `ex -c …`, `nvim --headless '+w
// ~/x' +q`, `emacs --batch --eval '(write-region "x" nil "~/.bashrc")'`.
// An editor still asks (it is interactive or runs commands of its own),
// but what its commands plainly write is judged as a write and the shell
// commands they spell as shell lines, so a write outside the workspace or
// `:!rm -rf ~` is denied as the same write or line is.

// vimNames are the vi family that reads Ex commands from -c and +.
var vimNames = wordSet{words: []string{"vi", "vim", "nvim", "view", "ex", "gvim", "vimdiff", "rvim", "rview", "evim", "nex", "nvi", "vim.basic", "vim.tiny"}}

// emacsNames are the Emacs family that evaluates Lisp from --eval.
var emacsNames = wordSet{words: []string{"emacs", "emacs-nox", "emacsclient"}}

func addEditorHandlers(handlers map[string]handler) {
	for _, n := range vimNames.words {
		handlers[n] = vimCmd
	}
	for _, n := range emacsNames.words {
		handlers[n] = emacsCmd
	}
	for _, n := range []string{"less", "more"} {
		handlers[n] = lessCmd // editorcode.go: less +'!CMD'
	}
}

func vimCmd(x *cmdCtx, args []word) {
	name := args[0].val
	x.add(Ask, RuleUnknownCommand, name+" is interactive or can run commands of its own")
	var cmds, files []word
	exMode := name == "ex" || name == "nex"
	for i := 1; i < len(args); i++ {
		a := args[i]
		v := a.val
		switch {
		case v == "--":
			files = append(files, args[i+1:]...)
			i = len(args)
		case v == "-c" || v == "--cmd":
			if i+1 < len(args) {
				cmds = append(cmds, args[i+1])
				i++
			}
		case strings.HasPrefix(v, "+") && len(v) > 1:
			cmds = append(cmds, word{val: v[1:], static: a.static})
		case v == "-S" || v == "-s" || v == "-u" || v == "-U" || v == "-i" || v == "-W" || v == "-w" || v == "-T" || v == "-q" || v == "-t" || v == "--listen" || v == "--server":
			i++ // a file it reads (a script, a vimrc), writes (-W, -w) or a value
		case v == "-e" || v == "-E" || v == "-es" || v == "-Es" || v == "-se" || v == "-sE":
			exMode = true
		case strings.HasPrefix(v, "-"):
		default:
			files = append(files, a)
		}
	}
	for _, c := range cmds {
		if !c.static {
			continue // the ask stands
		}
		x.exCommands(c.val, files)
	}
	if exMode && x.stdin != nil {
		// vim -es <<< '…': Ex commands read from the here-document
		for _, line := range strings.Split(*x.stdin, "\n") {
			x.exCommands(line, files)
		}
	}
}

// exCommands judges one line of Ex commands, split at | as Ex splits
// them: a write with a file name writes that file, a write without one
// writes the files being edited, and :! / :r ! / :w ! run a shell line.
func (x *cmdCtx) exCommands(line string, files []word) {
	for line != "" {
		// :lua, :py3, :perl, :ruby, :call, :exe take the rest of the
		// line, bars included (editorcode.go)
		if x.exEmbeddedCode(strings.TrimLeft(strings.TrimLeft(line, " \t:"), "%0123456789,.$'<>-+ \t")) {
			return
		}
		c, rest := splitEx(line)
		line = rest
		c = strings.TrimLeft(c, " \t:")
		c = strings.TrimLeft(c, "%0123456789,.$'<>-+ \t") // a range
		if strings.HasPrefix(c, "!") {
			x.exShell(strings.TrimLeft(c, " \t:%0123456789,.$'<>-+")[1:] + exRest(rest))
			return // a bar after :! belongs to the shell command
		}
		cmd, arg := exSplit(c)
		arg = strings.TrimSpace(arg)
		switch {
		case exAbbrev(cmd, "r", "read") && strings.HasPrefix(arg, "!"),
			exAbbrev(cmd, "w", "write") && strings.HasPrefix(arg, "!"):
			x.exShell(arg[1:] + exRest(rest))
			return
		case exAbbrev(cmd, "w", "write"), exAbbrev(cmd, "sav", "saveas"), exAbbrev(cmd, "wq", "wq"), exAbbrev(cmd, "x", "xit"),
			exAbbrev(cmd, "up", "update"), exAbbrev(cmd, "exi", "exit"), exAbbrev(cmd, "wa", "wall"), exAbbrev(cmd, "wqa", "wqall"),
			exAbbrev(cmd, "xa", "xall"), exAbbrev(cmd, "wn", "wnext"):
			arg = strings.TrimSpace(strings.TrimPrefix(arg, ">>"))
			if arg == "" {
				for _, f := range files {
					x.write(f)
				}
				continue
			}
			x.writeStr(x.editorPath(strings.Fields(arg)[0]))
		case exAbbrev(cmd, "sh", "shell"), exAbbrev(cmd, "te", "terminal"):
			x.add(Ask, RuleUnknownCommand, "the editor starts a shell")
		}
	}
}

// exShell judges the shell line an Ex command runs.
func (x *cmdCtx) exShell(text string) {
	sub := x.cw.copy()
	x.c.shell(strings.TrimSpace(text), &sub, x.s.depth+1, "editor")
}

// editorPath expands the ~ and $HOME an editor expands in a file name.
func (x *cmdCtx) editorPath(p string) string {
	if x.c.home == "" {
		return p
	}
	if p == "~" || strings.HasPrefix(p, "~/") {
		return x.c.home + p[1:]
	}
	for _, h := range []string{"$HOME", "${HOME}"} {
		if p == h || strings.HasPrefix(p, h+"/") {
			return x.c.home + p[len(h):]
		}
	}
	return p
}

// splitEx splits the first command off an Ex line at the bar that
// separates commands (a bar escaped with \ does not).
func splitEx(line string) (cmd, rest string) {
	for i := 0; i < len(line); i++ {
		if line[i] == '\\' {
			i++
			continue
		}
		if line[i] == '|' {
			return line[:i], line[i+1:]
		}
	}
	return line, ""
}

// exRest is the text after a bar that a shell command takes as its own.
func exRest(rest string) string {
	if rest == "" {
		return ""
	}
	return "|" + rest
}

// exSplit splits an Ex command into its name (with a trailing ! kept
// off) and its argument.
func exSplit(c string) (name, arg string) {
	i := 0
	for i < len(c) && (c[i] >= 'a' && c[i] <= 'z' || c[i] >= 'A' && c[i] <= 'Z') {
		i++
	}
	name, arg = c[:i], c[i:]
	arg = strings.TrimPrefix(arg, "!")
	return name, arg
}

// exAbbrev reports that name abbreviates full down to at least min.
func exAbbrev(name, min, full string) bool {
	return len(name) >= len(min) && strings.HasPrefix(full, name)
}

// emacsWriters are the Lisp functions whose string arguments name files
// they write, delete or move onto.
var emacsWriters = []string{"write-region", "write-file", "append-to-file", "delete-file", "delete-directory",
	"copy-file", "rename-file", "make-symbolic-link", "add-name-to-file", "copy-directory", "set-file-modes"}

func emacsCmd(x *cmdCtx, args []word) {
	x.add(Ask, RuleUnknownCommand, args[0].val+" is interactive or can run commands of its own")
	for i := 1; i < len(args); i++ {
		v := args[i].val
		code := ""
		switch {
		case (v == "--eval" || v == "-eval") && i+1 < len(args):
			code = args[i+1].val
			i++
		case strings.HasPrefix(v, "--eval="):
			code = strings.TrimPrefix(v, "--eval=")
		default:
			continue
		}
		x.elispRisks(code)
	}
}

// elispRisks judges the files plain Lisp calls write and the shell lines
// they run: (write-region … "~/.bashrc"), (delete-directory "~" t),
// (shell-command "rm -rf ~").
func (x *cmdCtx) elispRisks(code string) {
	for _, fn := range emacsWriters {
		eachCall(code, []string{"(" + fn + " "}, func(args string) bool {
			if end := matchingParen(args); end >= 0 {
				args = args[:end]
			}
			for _, lit := range allLiterals(args) {
				if strings.HasPrefix(lit, "/") || strings.HasPrefix(lit, "~") || strings.HasPrefix(lit, "$HOME") || strings.HasPrefix(lit, ".") {
					x.writeStr(x.editorPath(lit))
				}
			}
			return true
		})
	}
	for _, fn := range []string{"(shell-command ", "(shell-command-to-string ", "(async-shell-command "} {
		eachCall(code, []string{fn}, func(args string) bool {
			if lit, ok := firstLiteral(args); ok {
				x.exShell(lit)
			}
			return true
		})
	}
}

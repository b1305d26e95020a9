package policy

import (
	"strings"
)

// addFSHandlers registers the programs that read and write files, and the
// shell's builtins.
func addFSHandlers(handlers map[string]handler) {

	for _, n := range []string{"cat", "head", "tail", "wc", "nl", "cut", "tr", "paste", "join", "comm",
		"fold", "fmt", "column", "rev", "tac", "expand", "unexpand", "od", "hexdump", "strings",
		"base64", "base32", "basenc", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum",
		"b2sum", "cksum", "sum", "stat", "file", "du", "ls", "dir", "vdir", "realpath", "readlink",
		"diff", "cmp", "diff3", "tsort", "numfmt", "look", "exa", "eza",
		"lsd", "shasum", "zcat", "gzcat", "bzcat", "xzcat", "zstdcat", "lz4cat",
		"zgrep", "tokei", "scc", "pdfinfo",
		"shellcheck", "hadolint", "yamllint", "jsonlint", "actionlint", "codespell",
		"typos", "misspell", "test", "[", "nm", "objdump", "readelf", "size", "csvlook", "tree", "dust", "duf"} {
		handlers[n] = readAll
	}
	delete(handlers, "tree")
	handlers["tree"] = treeCmd
	handlers["test"] = testCmd
	handlers["["] = testCmd
	for _, n := range []string{"echo", "printf", "true", "false", ":", "pwd", "which", "type", "whereis",
		"whoami", "id", "groups", "uname", "arch", "nproc", "tty", "locale", "seq", "sleep", "expr",
		"basename", "dirname", "yes", "df", "ps", "free", "uptime", "getconf", "logname", "users",
		"who", "w", "lsb_release", "sw_vers", "wait", "jobs", "times",
		"shift", "break", "continue", "return", "exit", "bg", "fg", "caller", "dirs", "help", "umask", "ulimit", "set", "unset", "mapfile", "readarray",
		"factor", "cal", "clear", "reset", "tput", "date", "hostname", "lscpu", "lsblk"} {
		handlers[n] = noPaths
	}
	handlers["date"] = dateCmd
	for _, n := range []string{"read", "mapfile", "readarray", "getopts", "printf"} {
		handlers[n] = assigningBuiltin
	}
	handlers["hostname"] = hostnameCmd
	handlers["set"] = setCmd
	handlers["unset"] = unsetCmd
	handlers["cd"] = func(x *cmdCtx, a []word) { x.c.cd(x, a[1:]) }
	handlers["pushd"] = handlers["cd"]
	handlers["popd"] = func(x *cmdCtx, a []word) {
		x.add(Allow, RuleShellCd, "changes directory")
		x.cw.unknown = true
	}
	handlers["ps"] = func(x *cmdCtx, a []word) {
		for _, w := range a[1:] {
			if !strings.HasPrefix(w.val, "-") && strings.ContainsAny(w.val, "eE") || w.val == "-E" {
				x.add(Ask, RuleEnvPrint, "ps e shows other processes' environments")
				return
			}
		}
		x.add(Allow, RuleReadOnly, "lists processes")
	}
	handlers["printenv"] = func(x *cmdCtx, a []word) {
		for _, w := range a[1:] {
			if !benignParams.has(w.val) || w.val == "@" || w.val == "*" {
				x.add(Ask, RuleEnvPrint, "printing the environment can reveal secrets")
				return
			}
		}
		if len(a) == 1 {
			x.envListed() // envscreen.go
			return
		}
		x.add(Allow, RuleReadOnly, "prints variables that hold no secrets")
	}
	handlers["export"] = exportCmd
	handlers["eval"] = evalCmd
	handlers["source"] = sourceCmd
	handlers["."] = sourceCmd
	handlers["alias"] = aliasCmd
	handlers["unalias"] = func(x *cmdCtx, a []word) { x.add(Allow, RuleShellBuiltin, "removes aliases") }
	handlers["trap"] = trapCmd
	handlers["kill"] = func(x *cmdCtx, a []word) {
		for i, w := range a[1:] {
			// kill -9 -1, kill -1 (with a signal before it): every process.
			if w.val == "-1" && i > 0 || w.val == "0" {
				x.add(Deny, RuleSystem, "kill of every process the coder can reach")
				return
			}
		}
		x.add(Ask, RuleShellOption, "kill changes this shell, other processes or file ownership")
	}
	for _, n := range []string{"compgen", "complete", "compopt", "shopt", "enable", "hash", "fc", "history", "bind", "coproc", "pkill", "killall", "disown", "suspend", "logout", "chattr", "chown", "chgrp", "setfacl", "mount", "umount", "stty"} {
		n := n
		handlers[n] = func(x *cmdCtx, a []word) {
			x.add(Ask, RuleShellOption, n+" changes this shell, other processes or file ownership")
		}
	}
	for _, n := range []string{"less", "more", "most", "man", "info", "vi", "vim", "nvim", "nano", "emacs", "view", "pico", "ed", "ex", "joe", "micro", "code", "open", "xdg-open", "htop", "lsof", "dc", "bc", "gdb"} {
		n := n
		handlers[n] = func(x *cmdCtx, a []word) {
			x.add(Ask, RuleUnknownCommand, n+" is interactive or can run commands of its own")
		}
	}
	for _, n := range []string{"cp", "install"} {
		handlers[n] = copyCmd
	}
	handlers["mv"] = moveCmd
	handlers["rm"] = removeCmd
	handlers["unlink"] = removeCmd
	handlers["rmdir"] = writeAll
	handlers["mkdir"] = scratchDirs // tmpdir.go
	handlers["touch"] = touchCmd
	handlers["tee"] = teeCmd
	handlers["truncate"] = truncateCmd // truncate.go
	handlers["shred"] = func(x *cmdCtx, a []word) {
		x.add(Ask, RuleDestructive, "shred destroys file contents")
		writeAll(x, a)
	}
	handlers["chmod"] = chmodCmd
	handlers["ln"] = linkCmd
	handlers["dd"] = ddCmd
	handlers["mktemp"] = mktempCmd
	handlers["split"] = func(x *cmdCtx, a []word) {
		ops := operands(a[1:], "abClnt", nil)
		x.add(Allow, RuleFileWrite, "splits a file inside the workspace")
		if len(ops) > 0 {
			x.read(ops[0])
		}
		prefix := word{val: "x", static: true}
		if len(ops) > 1 {
			prefix = ops[1]
		}
		x.write(prefix)
	}
	handlers["patch"] = func(x *cmdCtx, a []word) {
		x.add(Ask, RuleFileWrite, "patch writes the files its input names")
		readAll(x, a)
	}
}

// operands returns the non-option arguments of args, skipping the values
// of the single-letter options in valued and of the long options in
// longVal (which take "--x v" as well as "--x=v"). Everything after "--" is
// an operand.
func operands(args []word, valued string, longVal []string) []word {
	var out []word
	for i := 0; i < len(args); i++ {
		a := args[i].val
		switch {
		case a == "--":
			return append(out, args[i+1:]...)
		case strings.HasPrefix(a, "--"):
			name, _, has := strings.Cut(a[2:], "=")
			if !has && contains(longVal, name) {
				i++
			}
		case len(a) > 1 && a[0] == '-' && args[i].static:
			// -abc or -n5 or -n 5.
			for j := 1; j < len(a); j++ {
				if strings.IndexByte(valued, a[j]) >= 0 {
					if j == len(a)-1 {
						i++
					}
					break
				}
			}
		default:
			out = append(out, args[i])
		}
	}
	return out
}

// longValues yields every --name=value or "--name value" of the given names.
func longValues(args []word, names ...string) []string {
	var out []string
	for i, w := range args {
		for _, n := range names {
			if v, ok := strings.CutPrefix(w.val, "--"+n+"="); ok {
				out = append(out, v)
			} else if w.val == "--"+n && i+1 < len(args) {
				out = append(out, args[i+1].val)
			}
		}
	}
	return out
}

// hasOpt reports whether any argument is one of opts, or a short-option
// cluster holding one of the letters in short.
func hasOpt(args []word, short string, opts ...string) bool {
	for _, w := range args {
		a := w.val
		if a == "--" {
			return false
		}
		for _, o := range opts {
			if a == o || strings.HasPrefix(a, o+"=") {
				return true
			}
		}
		if short != "" && len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], short) {
			return true
		}
	}
	return false
}

// readAll allows a read-only tool and judges each operand and each
// path-looking --opt=value as a read.
func readAll(x *cmdCtx, args []word) {
	x.add(Allow, RuleReadOnly, "read-only inspection")
	switch args[0].val {
	case "ls", "dir", "vdir", "du", "dust", "exa", "eza", "lsd", "tokei", "scc":
		if len(operands(args[1:], "", nil)) == 0 {
			x.readStr(".") // lists the working directory
		}
	}
	for _, w := range args[1:] {
		if !w.static {
			continue
		}
		if strings.HasPrefix(w.val, "-") && w.val != "-" {
			if _, v, ok := strings.Cut(w.val, "="); ok && looksLikePath(v) {
				x.readStr(v)
			}
			continue
		}
		x.read(w)
	}
}

func looksLikePath(v string) bool {
	return strings.ContainsRune(v, '/') || strings.HasPrefix(v, "~") || strings.HasPrefix(v, ".")
}

// noPaths allows a command whose arguments are not paths.
func noPaths(x *cmdCtx, args []word) {
	x.add(Allow, RuleReadOnly, "prints information")
}

// writeAll allows a file-changing tool whose operands are all written.
func writeAll(x *cmdCtx, args []word) {
	x.add(Allow, RuleFileWrite, "changes files inside the workspace")
	for _, w := range operands(args[1:], "msrSt", []string{"mode", "size", "reference", "context"}) {
		x.write(w)
	}
}

func treeCmd(x *cmdCtx, args []word) {
	x.add(Allow, RuleReadOnly, "lists a directory tree")
	ops := operands(args[1:], "oPILHT", []string{"charset", "filelimit", "timefmt", "sort", "filesfrom"})
	if len(ops) == 0 {
		x.readStr(".")
	}
	for i, w := range args {
		if w.val == "-o" && i+1 < len(args) {
			x.write(args[i+1])
		}
	}
	for _, w := range ops {
		x.read(w)
	}
}

func dateCmd(x *cmdCtx, args []word) {
	if hasOpt(args[1:], "s", "--set") {
		x.add(Ask, RuleShellOption, "date --set changes the system clock")
		return
	}
	readAll(x, args[:1])
	for _, v := range longValues(args[1:], "file", "reference") {
		x.readStr(v)
	}
	for _, v := range shortValues(args[1:], 'f', "dfrs") { // pol7_secretstdin.go: date -f .env
		x.readStr(v)
	}
}

func hostnameCmd(x *cmdCtx, args []word) {
	for _, w := range args[1:] {
		if !strings.HasPrefix(w.val, "-") || w.val == "-F" || w.val == "--file" {
			x.add(Ask, RuleShellOption, "hostname with an argument changes the host name")
			return
		}
	}
	noPaths(x, args)
}

func setCmd(x *cmdCtx, args []word) {
	if len(args) == 1 {
		x.add(Ask, RuleEnvPrint, "set with no arguments prints every variable, secrets included")
		return
	}
	for _, w := range args[1:] {
		if w.val == "--" {
			break
		}
		// set -o / +o emacs|vi|history are harmless; set -T/-o functrace with
		// a DEBUG trap and set -k change evaluation.
		if strings.HasPrefix(w.val, "-") || strings.HasPrefix(w.val, "+") {
			if strings.ContainsAny(w.val[1:], "kT") {
				x.add(Ask, RuleShellOption, "this set option changes how later commands are evaluated")
			}
		}
	}
	x.add(Allow, RuleShellBuiltin, "sets shell options")
}

func unsetCmd(x *cmdCtx, args []word) {
	x.add(Allow, RuleShellBuiltin, "removes shell variables")
	for _, w := range args[1:] {
		if w.val == "-f" {
			x.add(Ask, RuleShellOption, "removes shell functions")
		}
	}
}

func exportCmd(x *cmdCtx, args []word) {
	x.add(Allow, RuleShellAssign, "exports shell variables")
	if len(args) == 1 || (len(args) == 2 && args[1].val == "-p") {
		x.add(Ask, RuleEnvPrint, "printing the environment can reveal secrets")
	}
	for _, w := range args[1:] {
		if strings.HasPrefix(w.val, "-") {
			if strings.Contains(w.val, "f") {
				x.add(Ask, RuleShellFunction, "exports a function")
			}
			continue
		}
		name, val, _ := strings.Cut(w.val, "=")
		x.addF(envVarWordFinding(name, word{val: val, static: w.static}, false))
	}
}

func evalCmd(x *cmdCtx, args []word) {
	x.add(Ask, RuleShellEval, "eval runs text as code")
	for _, w := range args[1:] {
		if w.fetch {
			x.add(Deny, RuleShellStdin, "eval runs code a substitution downloads or decodes, which nobody has seen")
		}
		if !w.static {
			x.cw.unknown = true // it may change directory
			return
		}
	}
	// eval runs in this shell: a cd inside it moves the commands after it.
	x.c.shell(strings.Join(vals(args[1:]), " "), x.cw, x.s.depth+1, "eval")
}

func sourceCmd(x *cmdCtx, args []word) {
	x.add(Ask, RuleShellSource, "runs a file's contents in this shell")
	// The file may change directory: for what runs after it, not for
	// finding the file itself (fetchedrun.go: wget URL/i.sh && . ./i.sh).
	defer func() { x.cw.unknown = true }()
	if len(args) > 1 && (args[1].procSubst || args[1].fetch) {
		x.add(Deny, RuleShellStdin, args[0].val+" runs code that another command produces, which nobody has seen")
		return
	}
	if len(args) > 1 && x.unseenStream(args[1]) {
		// . /dev/stdin is sh reading its input: the here-document is
		// judged as this shell's own code, anything else is unseen.
		if v := args[1].val; x.stdin != nil && (v == "/dev/stdin" || v == "/dev/fd/0" || strings.HasSuffix(v, "self/fd/0")) {
			x.c.shell(*x.stdin, x.cw, x.s.depth+1, args[0].val+" <<")
			return
		}
		x.add(Deny, RuleShellStdin, args[0].val+" "+args[1].val+" runs code read from its input, which nobody has seen")
		return
	}
	if len(args) > 1 && !x.ranWritten(args[1], nil) {
		x.read(args[1])
	}
}

func aliasCmd(x *cmdCtx, args []word) {
	if len(args) == 1 || (len(args) == 2 && args[1].val == "-p") {
		x.add(Allow, RuleShellBuiltin, "lists aliases")
		return
	}
	x.add(Ask, RuleShellAlias, "defines an alias, which changes what a later word runs")
	for _, w := range args[1:] {
		if _, v, ok := strings.Cut(w.val, "="); ok && w.static {
			sub := cwds{unknown: true}
			x.c.shell(v, &sub, x.s.depth+1, "alias")
		}
	}
}

func trapCmd(x *cmdCtx, args []word) {
	if len(args) == 1 || args[1].val == "-l" || args[1].val == "-p" {
		x.add(Allow, RuleShellBuiltin, "lists traps")
		return
	}
	x.add(Ask, RuleShellOption, "trap runs code later, when a signal arrives")
	if args[1].static && args[1].val != "-" {
		sub := cwds{unknown: true}
		x.c.shell(args[1].val, &sub, x.s.depth+1, "trap")
	}
}

// assigningBuiltin covers builtins that assign shell variables from their
// operands or input (read NAME, printf -v NAME, mapfile NAME, getopts S NAME):
// assigning PATH or IFS this way changes what later words run.
func assigningBuiltin(x *cmdCtx, args []word) {
	x.add(Allow, RuleShellBuiltin, args[0].val+" sets shell variables")
	for i, w := range args[1:] {
		name := w.val
		if args[0].val == "printf" {
			if w.val != "-v" || i+2 >= len(args) {
				continue
			}
			name = args[i+2].val
		}
		if args[0].val == "mapfile" || args[0].val == "readarray" || args[0].val == "read" {
			if (w.val == "-u" || w.val == "-C" || w.val == "-c" || w.val == "-n" || w.val == "-N" || w.val == "-t" && args[0].val == "read" || w.val == "-p" || w.val == "-d" || w.val == "-O" || w.val == "-s") && i+2 < len(args) {
				continue
			}
			if w.val == "-a" && i+2 < len(args) {
				name = args[i+2].val
			}
		}
		if validName(name) {
			if f := envVarFinding(name, "", true); f.d > Allow {
				x.addF(f)
			}
		}
	}
}

// testCmd judges test and [: they look at a file's type, size and mode,
// never its contents, so a file that usually holds secrets may be tested
// (test -e .env); credential locations and paths outside stay as for a read.
func testCmd(x *cmdCtx, args []word) {
	x.add(Allow, RuleReadOnly, "tests files without reading them")
	for _, w := range args[1:] {
		if !w.static || strings.HasPrefix(w.val, "-") || w.val == "]" || w.val == "!" || w.val == "=" || w.val == "!=" || w.val == "(" || w.val == ")" {
			continue
		}
		if !looksLikePath(w.val) && !strings.Contains(w.val, ".") {
			continue // a string compared, most likely
		}
		sub := &cmdCtx{c: x.c, s: x.s, cw: x.cw, part: x.part}
		never := x.c.never
		sub.read(w)
		if sub.f.rule == RulePathReadSecret {
			x.c.never = never // testing is not reading
			continue
		}
		if sub.set {
			x.addF(sub.f)
		}
	}
}

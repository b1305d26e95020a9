package policy

import (
	"strings"
)

// Programs that run other programs or code: find, archives, shells,
// interpreters.

// addExecHandlers registers find, archives, shells and interpreters, and
// marks the programs that take program text as an argument.
func addExecHandlers(handlers map[string]handler, codeRunners map[string]bool) {
	handlers["find"] = findCmd
	handlers["parallel"] = parallelCmd // parallel.go
	handlers["tar"] = tarCmd
	handlers["bsdtar"] = tarCmd
	handlers["gtar"] = tarCmd
	handlers["zip"] = zipCmd
	handlers["unzip"] = unzipCmd
	for _, n := range []string{"gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzstd", "lz4"} {
		handlers[n] = compressCmd
	}
	for _, n := range shellNames {
		handlers[n] = shellCmd
		codeRunners[n] = true
	}
	for _, n := range interpNames {
		handlers[n] = interpreter
		codeRunners[n] = true
	}
	for _, n := range []string{"awk", "gawk", "mawk", "nawk", "sed", "xargs", "env", "eval"} {
		codeRunners[n] = true
	}
}

var shellNames = []string{"sh", "bash", "dash", "ash", "ksh", "mksh", "zsh", "fish", "csh", "tcsh", "yash", "posh", "rbash"}

var interpNames = []string{"python", "python2", "python3", "pypy", "pypy3", "node", "nodejs", "perl", "ruby",
	"php", "lua", "luajit", "Rscript", "R", "julia", "tclsh", "wish", "osascript", "pwsh", "powershell",
	"irb", "ghci", "runghc", "runhaskell", "scala", "groovy", "jshell", "clojure", "elixir", "iex", "erl",
	"escript", "guile", "racket", "sbcl", "ocaml", "swipl", "gjs", "qjs", "jrunscript"}

// isVersionedInterp recognises python3.12, ruby3.2, perl5.36 and the like.
func isVersionedInterp(prog string) bool {
	for _, base := range []string{"python", "pypy", "ruby", "perl", "php", "lua", "node", "pip"} {
		if rest, ok := strings.CutPrefix(prog, base); ok && rest != "" {
			if strings.Trim(rest, "0123456789.") == "" {
				return base != "pip"
			}
		}
	}
	return false
}

// nested judges argv as its own Part reached through via.
func (x *cmdCtx) nested(argv []word, via string) {
	c := x.c
	idx := len(c.parts)
	p := Part{Text: strings.Join(vals(argv), " "), Via: via}
	static := true
	for _, w := range argv {
		if !w.static {
			static = false
		}
	}
	if static {
		p.Argv = vals(argv)
	} else {
		p.Dynamic = true
	}
	c.addPart(p)
	sub := &cmdCtx{c: c, s: x.s, cw: x.cw, part: &p}
	if len(argv) > 0 && strings.ContainsRune(argv[0].val, '=') {
		// exec-style wrappers run argv[0] as a program: NAME=value is no
		// assignment here, and the policy does not guess what it names
		sub.add(Ask, RuleUnknownCommand, via+" runs a program named "+quoteShort(argv[0].val))
	}
	sub.command(argv, 1)
	if what, ok := c.dumpArgv(vals(argv)); ok && !(what == "env" || what == "printenv") {
		// a print-everything mode run by a wrapper (nix develop -c make -p);
		// env and printenv judge themselves (envListed)
		sub.add(Ask, RuleEnvPrint, what+" prints the environment, secrets included")
	}
	p.Written = bareWritten(argv, len(p.Wrappers) == 0) // written.go
	if !sub.set {
		sub.add(Ask, RuleUnknownCommand, "nothing decided this command")
	}
	p.Decision, p.Rule, p.Reason = sub.f.d, sub.f.rule, sub.f.reason
	if p.Argv != nil && !p.Dynamic {
		f := c.e.applyArgvRules(sub.f, p.Argv)
		p.Decision, p.Rule, p.Reason = f.d, f.rule, f.reason
	}
	if idx < len(c.parts) {
		c.parts[idx] = p
	}
}

var findValued = wordSet{words: []string{"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex",
	"-type", "-xtype", "-size", "-perm", "-user", "-group", "-uid", "-gid", "-mtime", "-atime", "-ctime",
	"-mmin", "-amin", "-cmin", "-maxdepth", "-mindepth", "-links", "-inum", "-printf", "-lname", "-ilname",
	"-fstype", "-context", "-newer", "-anewer", "-cnewer", "-used", "-samefile", "-regextype", "-files0-from"}}

var findFlags = wordSet{words: []string{"-print", "-print0", "-ls", "-prune", "-quit", "-true", "-false", "-empty", "-readable",
	"-writable", "-executable", "-nouser", "-nogroup", "-depth", "-d", "-mount", "-xdev", "-noleaf",
	"-daystart", "-warn", "-nowarn", "-ignore_readdir_race", "-noignore_readdir_race", "-help", "--help",
	"-version", "--version", "-a", "-and", "-o", "-or", "-not", "!", ",", "(", ")", "-follow"}}

func findCmd(x *cmdCtx, args []word) {
	x.add(Allow, RuleReadOnly, "finds files")
	rest := args[1:]
	i := 0
	for i < len(rest) && (rest[i].val == "-H" || rest[i].val == "-L" || rest[i].val == "-P" ||
		strings.HasPrefix(rest[i].val, "-O") || rest[i].val == "-D") {
		if rest[i].val == "-L" {
			x.add(Ask, RulePathSymlinkOut, "find -L follows links, which may lead outside the workspace")
		}
		if rest[i].val == "-D" {
			i++
		}
		i++
	}
	if i < len(rest) && rest[i].val == "--" { // GNU find ends its options here: find -- -delete walks "." (revin)
		i++
	}
	var starts []word
	for i < len(rest) {
		v := rest[i].val
		if strings.HasPrefix(v, "-") || v == "(" || v == "!" {
			break
		}
		starts = append(starts, rest[i])
		i++
	}
	if len(starts) == 0 {
		starts = []word{{val: ".", static: true}}
	}
	for _, s := range starts {
		x.read(s)
	}
	expr := rest[i:]
	findSecrets(x, starts, expr)
	if findDeletesArtefacts(rest[i:]) { // findartefacts.go
		if x.f.d == Allow {
			x.f = finding{Allow, RuleFileWrite, "find deletes build and interpreter artefacts, which the next run makes again"}
		}
		for _, s := range starts {
			x.write(word{val: s.val + "/glob-match", static: s.static})
		}
		return
	}
	for i < len(rest) {
		v := rest[i].val
		switch {
		case v == "-exec" || v == "-execdir" || v == "-ok" || v == "-okdir":
			j := i + 1
			for j < len(rest) && rest[j].val != ";" && rest[j].val != "+" {
				j++
			}
			inner := rest[i+1 : j]
			if len(inner) == 0 {
				x.add(Ask, RuleUnknownCommand, "find "+v+" with no command")
			} else if strings.Contains(inner[0].val, "{}") {
				x.add(Ask, RulePathProgram, "find "+v+" runs every file it matches as a program")
			} else {
				prog := inner[0].val
				if base, ok := resolvedProgram(prog); ok {
					prog = base
				}
				switch prog {
				case "rm", "shred", "unlink", "truncate", "rmdir", "mv", "dd":
					x.add(Ask, RuleDestructive, "find "+v+" "+prog+" changes every file find matches")
				}
				if isCodeRunner(prog) || isVersionedInterp(prog) {
					for _, w := range inner[1:] {
						if strings.Contains(w.val, "{}") {
							x.add(Ask, RuleShellDynamicArg, "find pastes file names into code, so a file name can run commands")
							break
						}
					}
				}
			}
			// Judge the command for every starting point: with {}
			// standing for a file found below it, for the starting
			// point itself, which find matches first (depth 0): find
			// .npmrc -exec cp x {} \; writes .npmrc, and for the names
			// the name tests let through (findexec_names.go).
			for _, s := range starts {
				for _, at := range findExecPaths(s.val, expr) {
					argv := make([]word, len(inner))
					for k, w := range inner {
						argv[k] = w
						if strings.Contains(w.val, "{}") {
							argv[k] = word{val: strings.ReplaceAll(w.val, "{}", at), static: w.static && s.static}
						}
					}
					if len(argv) > 0 {
						x.nested(argv, "find "+v)
					}
				}
			}
			i = j + 1
		case v == "-delete":
			x.add(Ask, RuleDestructive, "find -delete deletes every file it matches")
			for _, s := range starts {
				x.write(word{val: s.val + "/glob-match", static: s.static})
			}
			i++
		case v == "-fprint" || v == "-fprint0" || v == "-fls" || v == "-fprintf":
			if i+1 < len(rest) {
				x.write(rest[i+1])
			}
			i += 2
			if v == "-fprintf" {
				i++
			}
		case strings.HasPrefix(v, "-newer") && len(v) == 8:
			i += 2
		case findValued.has(v):
			if v == "-files0-from" && i+1 < len(rest) {
				x.read(rest[i+1])
				x.add(Ask, RulePathUnknown, "find reads its starting points from a file")
			}
			i += 2
		case findFlags.has(v):
			i++
		default:
			x.add(Ask, RuleUnknownCommand, "a find expression the policy does not know: "+v)
			i++
		}
	}
}

// shellRead is a shell's command line read without judging it.
type shellRead struct {
	payload *word     // the script of -c (or a cluster holding c)
	ops     []word    // operands: a script file and its arguments, or the payload's arguments
	stdin   bool      // -s: the script is the input, the operands are its arguments
	notes   []finding // options that change how text is run, in the order given
}

// readShell reads the words after a shell's name the way the shell does.
func readShell(name string, rest []word) shellRead {
	var r shellRead
	note := func(rule, reason string) { r.notes = append(r.notes, finding{Ask, rule, reason}) }
	for i := 0; i < len(rest); i++ {
		a := rest[i].val
		switch {
		case r.payload != nil || len(r.ops) > 0:
			r.ops = append(r.ops, rest[i])
		case a == "--" || a == "-":
			r.ops = append(r.ops, rest[i+1:]...)
			i = len(rest)
		case a == "-o" || a == "+o" || a == "-O" || a == "+O":
			if i+1 < len(rest) && (rest[i+1].val == "expand_aliases" || rest[i+1].val == "functrace") {
				note(RuleShellOption, "a shell option that changes how text is run")
			}
			i++
		case a == "--rcfile" || a == "--init-file":
			note(RuleShellScript, "runs a start-up file")
			i++
		case a == "-s":
			r.stdin = true
		case a == "-i" || a == "--login" || a == "-l" || a == "--debugger":
			note(RuleShellStdin, "an interactive or login shell reads code the request does not show")
		case strings.HasPrefix(a, "--"):
		case len(a) > 1 && (a[0] == '-' || a[0] == '+'):
			if strings.ContainsRune(a, 'c') && a[0] == '-' {
				if strings.ContainsAny(a, "is") {
					note(RuleShellStdin, "an interactive shell")
				}
				if i+1 < len(rest) {
					r.payload = &rest[i+1]
					i++
				} else {
					note(RuleShellParse, name+" -c with no command")
				}
			} else if strings.ContainsRune(a[1:], 'i') {
				note(RuleShellStdin, "an interactive shell reads code the request does not show")
			} else if strings.ContainsRune(a[1:], 's') && a[0] == '-' {
				r.stdin = true
			}
		default:
			r.ops = append(r.ops, rest[i])
		}
	}
	return r
}

// script is the text the shell runs and the engine re-parses: a static
// -c payload, or the here-document (stdin, when in plain sight) it reads
// as its script. via names how it is reached ("bash -c", "sh <<").
func (r shellRead) script(name string, stdin *string) (text, via string, ok bool) {
	switch {
	case r.payload != nil:
		if !r.payload.static || r.payload.fetch {
			return "", "", false
		}
		return r.payload.val, name + " -c", true
	case (r.stdin || len(r.ops) == 0) && stdin != nil:
		return *stdin, name + " <<", true
	}
	return "", "", false
}

func shellCmd(x *cmdCtx, args []word) {
	args = stdinScriptAsDashS(args) // pol7_stdinscript.go: sh /dev/stdin is sh -s
	name := args[0].val
	r := readShell(name, args[1:])
	for _, f := range r.notes {
		x.addF(f)
	}
	payload, ops, stdin := r.payload, r.ops, r.stdin
	switch {
	case payload != nil && payload.fetch:
		x.add(Deny, RuleShellStdin, name+" -c runs code a substitution downloads or decodes, which nobody has seen")
		return
	case payload != nil:
		x.add(Allow, RuleShellBuiltin, "runs a shell on the command text, which is judged on its own")
		if !payload.static {
			x.add(Ask, RuleShellDynamicArg, name+" -c with a command built from an expansion")
			return
		}
		if (name == "fish" || name == "csh" || name == "tcsh" || name == "zsh") && !(name == "zsh" && zshPlainAsBash(payload.val)) { // zshplain.go
			x.add(Ask, RuleShellScript, name+" syntax is not bash; its payload is judged as bash only as a hint")
		}
		if len(ops) > 0 {
			x.add(Ask, RuleShellDynamicArg, "positional arguments to a shell payload are expanded at run time")
			x.c.judgePositional(payload.val, ops, x.cw.copy(), x.s.depth) // bindprop.go: sh -c '$0 -rf ~' rm
		}
	case (stdin || len(ops) == 0) && x.stdin != nil:
		// bash <<'EOF' … EOF: the script is in plain sight.
		x.add(Allow, RuleShellBuiltin, name+" runs the here-document, which is judged on its own")
		if len(ops) > 0 {
			x.add(Ask, RuleShellDynamicArg, "positional arguments to a shell script are expanded at run time")
		}
	case stdin:
		x.add(Deny, RuleShellStdin, name+" -s runs code read from its input, which nobody has seen")
		return
	case len(ops) > 0 && (!ops[0].static || ops[0].procSubst):
		x.add(Deny, RuleShellStdin, name+" runs a script that another command or an expansion produces, which nobody has seen")
		return
	case len(ops) > 0:
		x.runScript(name, ops[0], RuleShellScript)
		return
	default:
		x.add(Deny, RuleShellStdin, name+" with no script runs code read from its input, which nobody has seen")
		return
	}
	// The script is re-read by the same reading the exported reader gives
	// (Command.Script), so both see one script.
	if text, via, ok := r.script(name, x.stdin); ok {
		sub := x.cw.copy()
		x.c.shell(text, &sub, x.s.depth+1, via)
	}
}

// findSecrets denies a search for secret files across the system or the
// home directory (find / -name '*.pem', find ~ -name id_rsa): collecting
// keys, whatever the search then does with them.
func findSecrets(x *cmdCtx, starts, expr []word) {
	wide := false
	for _, s := range starts {
		for _, p := range x.resolve(s) {
			if p == "/" || x.c.home != "" && within(x.c.home, p) {
				wide = true
			}
		}
	}
	if !wide {
		return
	}
	for i := 0; i+1 < len(expr); i++ {
		switch expr[i].val {
		case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename":
			pat := expr[i+1].val
			base := pat[strings.LastIndexByte(pat, '/')+1:]
			if secretName(base) || hasGlobMeta(base) && aimedAtSecrets(base) {
				x.add(Deny, RulePathCredential, "searches the whole system or home for secret files ("+quoteShort(pat)+")")
				return
			}
		}
	}
}

package policy

import (
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// cmdCtx accumulates the judgment of one simple command.
type cmdCtx struct {
	c    *checkEnv
	s    *src
	cw   *cwds
	part *Part
	f    finding
	set  bool
	adds int // how many contributions were made, to tell whether the command itself was judged
	// stdin is the text of a here-document or here-string the command
	// reads, when it is in plain sight; nil otherwise.
	stdin *string
	// call is the simple command being judged as the shell wrote it; nil
	// for a command built from another one's arguments (find -exec).
	call *syntax.CallExpr
	// stdinNull: the command reads stdin from /dev/null (gitforms.go).
	stdinNull bool
}

// add records a contribution; the strictest wins, the first on a tie.
func (x *cmdCtx) add(d Decision, rule, reason string) {
	x.adds++
	if !x.set || d > x.f.d {
		x.f = finding{d, rule, reason}
		x.set = true
	}
}

func (x *cmdCtx) addF(f finding) { x.add(f.d, f.rule, f.reason) }

// resolve returns the canonical absolute paths w may name (one per
// possible working directory); nil when it cannot be known.
func (x *cmdCtx) resolve(w word) []string {
	if !w.static {
		return nil
	}
	v := w.val
	if w.pattern {
		v = literalPrefixDir(v)
	}
	if filepath.IsAbs(v) {
		return []string{x.c.canon(v)}
	}
	if x.cw.unknown || len(x.cw.dirs) == 0 {
		return nil
	}
	out := make([]string, 0, len(x.cw.dirs))
	for _, d := range x.cw.dirs {
		out = append(out, x.c.canon(rawJoin(d, v)))
	}
	return out
}

func (x *cmdCtx) read(w word)  { x.access(w, false) }
func (x *cmdCtx) write(w word) { x.access(w, true) }

// readStr and writeStr judge a path given as a plain static string (for
// example the value of --output=PATH).
func (x *cmdCtx) readStr(v string)  { x.access(word{val: v, static: true}, false) }
func (x *cmdCtx) writeStr(v string) { x.access(word{val: v, static: true}, true) }

func (x *cmdCtx) access(w word, write bool) {
	if write && (!w.static || w.brace || w.pattern) {
		x.c.wrote("") // a target not known before it runs (shellwrites.go)
	}
	if !w.static {
		x.add(Ask, RulePathUnknown, "a path that comes from an expansion cannot be judged before it runs")
		x.fixedPrefixDeny(w, write) // fixedprefix.go: rm -rf /home/$USER
		return
	}
	if w.val == "" || w.val == "-" {
		return
	}
	if devStream(w.val) {
		return // the terminal or a descriptor, not a file
	}
	if strings.HasPrefix(w.val, "~/") && !w.tilde && x.c.home != "" {
		// Not expanded by the shell here, but a tool may expand it
		// itself; judge the stricter reading.
		x.access(word{val: x.c.home + w.val[1:], static: true, pattern: w.pattern}, write)
	}
	if w.braced && !write {
		x.bracedRead(w)
	}
	if w.brace {
		x.add(Ask, RulePathUnknown, "a brace expansion builds paths the policy does not expand")
		return
	}
	if w.pattern {
		dir := literalPrefixDir(w.val)
		tail := w.val
		if dir == "/" {
			tail = strings.TrimPrefix(w.val, "/")
		} else if strings.HasPrefix(w.val, dir+"/") {
			tail = w.val[len(dir)+1:]
		}
		if write && (strings.ContainsAny(w.val, "{") || hiddenGlob(tail)) {
			x.add(Ask, RulePathUnknown, "a pattern that may expand to hidden or protected paths")
			// and still judged where it lies: rm -rf ~/.ss? writes outside the workspace
		}
		if write {
			w = word{val: filepath.Join(dir, "glob-match"), static: true}
		} else {
			x.globRead(dir, tail)
			w = word{val: dir, static: true}
		}
	}
	paths := x.resolve(w)
	if paths == nil {
		if write {
			x.c.wrote("")
		}
		x.add(Ask, RulePathUnknown, "a relative path in a directory that cannot be known before it runs")
		return
	}
	for _, p := range paths {
		x.addF(x.siblingRead(x.c.judgePath(p, write), p, write)) // siblingreads.go
	}
}

// hiddenGlob reports whether a glob tail may match dot files or directories.
func hiddenGlob(tail string) bool {
	for _, c := range strings.Split(tail, "/") {
		if strings.HasPrefix(c, ".") || strings.HasPrefix(c, "[") {
			return true
		}
	}
	return false
}

// call judges one simple command and records it as a Part.
func (c *checkEnv) call(s *src, st *syntax.Stmt, call *syntax.CallExpr, cw *cwds, redirs []redirTarget) {
	// Substitutions run before the command; judge them first.
	for _, a := range call.Assigns {
		c.scan(s, a.Value, cw)
		if a.Array != nil {
			c.scan(s, a.Array, cw)
		}
		if a.Index != nil {
			c.scan(s, a.Index, cw)
		}
	}
	for _, w := range call.Args {
		c.scan(s, w, cw)
	}
	idx := len(c.parts)
	p := Part{Text: s.slice(st), Via: s.via}
	c.addPart(p)
	x := &cmdCtx{c: c, s: s, cw: cw, part: &p, stdin: stdinText(st), call: call}

	for _, a := range call.Assigns {
		name := ""
		if a.Name != nil {
			name = a.Name.Value
		}
		val := word{static: true}
		if a.Value != nil {
			val = decodeWord(a.Value, c.home)
		}
		if a.Array != nil || a.Index != nil {
			val.static = false
		}
		if !val.static {
			p.Dynamic = true
		}
		p.Assigns = append(p.Assigns, name+"="+val.val)
		if name == "PYTHONPATH" && val.static && len(call.Args) > 0 && x.inWorkspaceList(val.val) {
			// The project's own modules: what pytest imports anyway.
			x.add(Allow, RuleShellAssign, "puts workspace directories on PYTHONPATH")
			continue
		}
		if name == "PATH" && a.Index == nil && c.pathPrependsWorkspace(a.Value, cw) { // pathprepend.go
			x.sandboxedCode("puts the workspace's own program folders on PATH", RuleEnvExecVar, "PATH puts the workspace's own programs first: with --sandbox off that asks")
			continue
		}
		x.addF(envVarWordFinding(name, val, len(call.Args) == 0))
	}
	words := make([]word, len(call.Args))
	argv := make([]string, len(call.Args))
	static := true
	for i, w := range call.Args {
		words[i] = decodeWord(w, c.home)
		words[i].braced = s.braced[w]
		if i > 0 && !words[i].static && s.inert.numberWord(w) {
			words[i].benignVars = true // inertvalues.go: echo $((i+1)) after i=0
		}
		argv[i] = words[i].val
		if !words[i].static {
			static = false
			// A command word cmdword.go writes out stays its: $(echo
			// python3) manage.py flush is python3 … for every reader.
			if sw, ok := c.substWord(w); ok && !words[i].fetch && (i > 0 || !c.writesOutCommand(w)) {
				words[i] = sw
				words[i].ifEmpty, words[i].hasIfEmpty = c.emptySubstValue(w) // emptysubst.go
			}
		}
		if ((words[i].pattern || words[i].procSubst) && i > 0) || words[i].braced {
			p.Dynamic = true
		}
	}
	if len(words) > 0 && !words[0].static {
		if ws, ok := c.substCommandWord(call.Args[0]); ok { // cmdword.go: `echo rm` -rf ~
			words = append(ws, words[1:]...)
			// The written-out words are the argv every later reader
			// sees (the rules on Argv, database drops): $(echo python3)
			// manage.py flush is python3 manage.py flush.
			argv, static = argvOf(words)
		}
	}
	if static {
		p.Argv = argv
	} else {
		p.Dynamic = true
	}
	for _, r := range redirs {
		if r.fd {
			continue
		}
		x.stdinNull = x.stdinNull || r.stdinNull
		if devStream(r.w.val) {
			p.Redirects = append(p.Redirects, r.w.val)
		} else {
			p.Redirects = append(p.Redirects, x.resolve(r.w)...)
		}
		x.capturing(func() { x.access(r.w, r.write) }) // tmpdir.go
	}
	if len(words) == 0 {
		x.add(Allow, RuleShellAssign, "assigns shell variables")
	} else {
		// A redirect or assignment judged above must not stand in for a
		// judgment of the program itself: `unknown > out.txt` still asks.
		before := x.adds
		if len(call.Assigns) > 0 {
			words = withEnvArgs(p.Assigns, words) // envargs.go: MAVEN_ARGS=deploy mvn test
		}
		x.command(words, 0)
		if x.adds == before {
			x.add(Ask, RuleUnknownCommand, "nothing decided this command")
		}
	}
	if !x.set {
		x.add(Ask, RuleUnknownCommand, "nothing decided this command")
	}
	x.emptiesTreeFiles(words, redirs)                     // emptyfile.go: : > src/main.rs
	x.secretStdin(st)                                     // pol7_secretstdin.go: cat <<< "$KEY"
	p.Written = asWritten(st, call, len(p.Wrappers) == 0) // written.go
	x.noteOutput(words, redirs)
	p.Decision, p.Rule, p.Reason = x.f.d, x.f.rule, x.f.reason
	if p.Argv != nil && !p.Dynamic {
		f := c.e.applyArgvRules(x.f, p.Argv)
		p.Decision, p.Rule, p.Reason = f.d, f.rule, f.reason
	} else if p.Argv != nil {
		// User deny and ask rules still apply to a dynamic command.
		f := c.e.applyArgvRules(x.f, p.Argv)
		if f.d > x.f.d {
			p.Decision, p.Rule, p.Reason = f.d, f.rule, f.reason
		}
	}
	if idx < len(c.parts) {
		c.parts[idx] = p
	}
}

// command judges a decoded argv. depth counts wrappers stripped so far.
func (x *cmdCtx) command(args []word, depth int) {
	if len(args) == 0 {
		return
	}
	if depth > 16 {
		x.add(Ask, RuleShellTooDeep, "too many nested wrappers")
		return
	}
	name := args[0]
	if !name.static || name.pattern || name.val == "" {
		x.add(Ask, RuleShellDynamicCmd, "the command name comes from an expansion and cannot be known before it runs")
		x.dynamicReach(args[1:]) // dynreach.go: $c -rf ~
		if name.static && name.pattern && !name.brace {
			// globprog.go: /???/r? -rf ~ is /bin/rm -rf ~ on every system
			for _, p := range globPrograms(name.val) {
				x.command(append([]word{{val: p, static: true}}, args[1:]...), depth+1)
			}
		}
		return
	}
	prog := name.val
	args = filterOptionValues(args) // tildeuser.go: rspec --tag ~slow
	if base, ok := resolvedProgram(prog); ok {
		// /bin/bash is bash: system directories are read-only to the coder.
		args = append([]word{{val: base, static: true}}, args[1:]...)
		prog = base
	} else if strings.ContainsRune(prog, '/') {
		args = x.expandLongOpts(args) // ./gradlew --init-scrip is gradle's --init-script
		x.judgeClasses(args)          // classes.go: ./gradlew publish, ./mvnw -s /dev/stdin
		x.pathProgram(args, depth)
		return
	}
	if sub, ok := strings.CutPrefix(prog, "git-"); ok && sub != "" {
		if _, known := handlerFor(prog); !known {
			// git's dashed programs: git-push is what `git push` runs
			args = append([]word{{val: "git", static: true}, {val: sub, static: true}}, args[1:]...)
			prog = "git"
		}
	}
	args = x.expandLongOpts(args)  // longopts.go: --force-w is --force-with-lease
	args = x.expandShortOpts(args) // shortopts.go: -uo FILE is -u -o FILE
	x.judgeExecOptions(args)       // pol7_execopts.go: split --filter=CMD
	if strings.ContainsAny(prog, "=\x00\n\t ") || strings.HasPrefix(prog, "-") {
		x.add(Ask, RuleUnknownCommand, "an unusual command name "+quoteShort(prog))
		return
	}
	x.judgeEscapes(args) // escapes.go: docker.sock, unshare -r, ssh localhost, tmux send-keys, also of wrappers
	if inner, ok := x.wrapper(args); ok {
		if inner == nil {
			return
		}
		n := len(args) - len(inner)
		for _, w := range args[:n] {
			x.part.Wrappers = append(x.part.Wrappers, w.val)
		}
		if x.part.Argv != nil {
			x.part.Argv = x.part.Argv[n:]
		}
		x.command(inner, depth+1)
		return
	}
	// Judged after the program's own handler, so that its rule names the
	// decision when both ask (eval "$X" is shell.eval).
	defer func() {
		afterDashes := false
		for _, a := range args[1:] {
			if a.val == "--" && a.static {
				afterDashes = true
			}
			if a.brace {
				x.add(Ask, RuleShellDynamicArg, "a brace expansion turns one word into several arguments")
				break
			}
			if !afterDashes && !globSafe.has(name.val) && !globSafeVerb(name.val, args) /* everyday.go */ && globReadAsOption(a) /* globoption.go */ {
				x.add(Ask, RuleShellDynamicArg, "a glob may expand to file names that "+name.val+" would read as options")
				break
			}
		}
		for _, a := range args[1:] {
			if !a.static && !(a.benignVars && (name.val == "echo" || name.val == "printf")) {
				x.add(Ask, RuleShellDynamicArg, "an argument comes from an expansion or substitution and cannot be judged before it runs")
				break
			}
			if !substAllowed(prog, a.subst) {
				x.add(Ask, RuleShellDynamicArg, "an argument comes from a substitution whose output "+prog+" should not be given unseen")
				break
			}
		}
	}()
	if x.dryRun(prog, args) { // dryrun.go: npm publish --dry-run uploads nothing
		return
	}
	if prog == "kubectl" && x.kubectlClientDryRun(args) { // kubedryrun.go
		return
	}
	if (prog == "ansible-playbook" || prog == "ansible") && x.ansibleModes(prog, args) { // ansiblemodes.go
		return
	}
	_, prefixRules := builtins()
	for i := range prefixRules {
		r := &prefixRules[i]
		if subsequence(args, r.Argv) {
			x.add(r.Decision, r.ID, r.Reason)
		}
	}
	x.judgeClasses(args) // classes.go: publishing, unseen text, whichever spelling
	if _, known := handlerFor(prog); len(args) == 2 && (args[1].val == "--version" || (args[1].val == "version" && !known)) && !x.set {
		x.add(Allow, RuleReadOnly, "prints "+prog+"'s version")
		return
	}
	if h, ok := handlerFor(prog); ok {
		x.c.keepText = prog == "chmod" || prog == "touch" || prog == "mkdir" || prog == "chown" || prog == "chgrp"
		h(x, args)
		x.c.keepText = false
		return
	}
	if strings.HasPrefix(prog, "mkfs") {
		x.add(Deny, RuleSystem, "formats a filesystem")
		return
	}
	if isVersionedInterp(prog) {
		interpreter(x, args)
		return
	}
	if !x.set {
		x.unknownRunner(prog, args) // unknownrunners.go: caffeinate rm -rf ~
	}
}

// subsequence reports whether the tokens of want appear in args in order,
// the first being the program itself.
func subsequence(args []word, want []string) bool {
	if len(want) == 0 || len(args) == 0 || args[0].val != want[0] {
		return false
	}
	j := 1
	for _, a := range args[1:] {
		if j == len(want) {
			break
		}
		if a.val == want[j] {
			j++
		}
	}
	return j == len(want)
}

// vals returns the decoded values of ws.
func vals(ws []word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.val
	}
	return out
}

// devStream reports the special files that are streams, not storage.
func devStream(p string) bool {
	switch p {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty", "/dev/zero":
		return true
	}
	return strings.HasPrefix(p, "/dev/fd/") && isDigits(p[len("/dev/fd/"):])
}

// globSafe programs have no option that runs a program or writes a file
// named by a value, so a glob expanding to option-like file names is
// harmless for them.
var globSafe = wordSet{words: []string{"ls", "wc", "cat", "head", "tail", "stat", "file", "du", "grep", "egrep", "fgrep",
	"md5sum", "sha1sum", "sha256sum", "sha512sum", "nl", "diff", "cmp", "gofmt", "echo", "printf", "rm",
	"mkdir", "touch", "cut", "tr", "strings", "od", "hexdump", "realpath", "basename", "dirname", "test", "["}}

// inWorkspaceList reports whether every entry of a colon-separated path
// list is a directory inside the workspace.
func (x *cmdCtx) inWorkspaceList(v string) bool {
	if v == "" {
		return false
	}
	for _, e := range strings.Split(v, ":") {
		if e == "" || strings.ContainsAny(e, "*?[{~$") {
			return false
		}
		ps := x.resolve(word{val: e, static: true})
		if ps == nil {
			return false
		}
		for _, p := range ps {
			fr := foldPath(rel(p, x.c.ws))
			if !within(p, x.c.ws) || fr == ".git" || strings.HasPrefix(fr, ".git/") || strings.HasPrefix(fr, ".sentinel") {
				return false
			}
		}
	}
	return true
}

// writesOutCommand reports a command word cmdword.go writes out.
func (c *checkEnv) writesOutCommand(w *syntax.Word) bool {
	_, ok := c.substCommandWord(w)
	return ok
}

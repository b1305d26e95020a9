package policy

import (
	"strings"
)

var (
	envSpec   = optSpec{flags: "i0v", valued: "uCS", long: []string{"ignore-environment", "null", "debug"}, longVal: []string{"unset", "chdir", "split-string"}}
	xargsSpec = optSpec{flags: "0rtpx", valued: "dEILnPsa", long: []string{"null", "no-run-if-empty", "verbose", "interactive", "exit", "open-tty", "show-limits"},
		longVal: []string{"delimiter", "eof", "max-lines", "max-args", "max-procs", "max-chars", "arg-file", "replace", "process-slot-var"}}
)

// wrapKind is how a wrapper treats the words after it.
type wrapKind int

const (
	wrapPriv    wrapKind = iota + 1 // changes privileges (sudo, doas, …): never followed
	wrapOpaque                      // runs a program in a way the policy does not model
	wrapEnv                         // env [opts] [NAME=value…] cmd
	wrapPlain                       // runWrappers: [opts] [operands] cmd (nice, timeout, flock, …)
	wrapCommand                     // command [-pvV] cmd
	wrapBuiltin                     // builtin cmd
	wrapExec                        // exec [-cl] [-a name] cmd
	wrapBox                         // busybox / toybox applet
	wrapXargs                       // xargs [opts] cmd (arguments come from the input)
	wrapWatch                       // watch [opts] words… (joined and run by a shell)
)

// optVal is a valued option a wrapper was given, in the order given.
type optVal struct{ opt, val string }

// wrapRead is one wrapper read without judging it: the reading the engine
// judges (wrapper) and the exported reader follows (programOf) are one.
type wrapRead struct {
	kind wrapKind
	name string   // the wrapper's program name
	rest []word   // the words after the wrapper's name (after nice's -N)
	n    int      // rest[n:] is what follows the options
	good bool     // every option was one the policy knows
	vals []optVal // valued options, in order
	// shell: the wrapper runs its command string with sh -c (flock -c).
	shell bool
}

var wrapKinds = lazy[map[string]wrapKind]{build: func() map[string]wrapKind {
	m := map[string]wrapKind{"env": wrapEnv, "command": wrapCommand,
		"builtin": wrapBuiltin, "exec": wrapExec, "busybox": wrapBox, "toybox": wrapBox, "xargs": wrapXargs, "watch": wrapWatch}
	for _, n := range []string{"sudo", "doas", "su", "pkexec", "runuser", "sg", "newgrp", "run0", "calife", "please",
		"nsenter", "chroot", "setpriv", "capsh"} { // privtools.go: enter other namespaces, change root or capabilities
		m[n] = wrapPriv
	}
	for _, n := range []string{"unshare", "firejail", "bwrap", "systemd-run", "proot", "fakeroot", "faketime", "strace", "ltrace", "gdb", "valgrind", "script", "expect", "rlwrap", "entr", "nodemon", "tmux", "screen", "dtach", "bear"} {
		m[n] = wrapOpaque
	}
	for n := range runWrappers.get() {
		m[n] = wrapPlain
	}
	return m
}}

// runWrapper is a program that runs the command after its options (and
// after skip operands of its own) as that command, changing only how it
// runs: the wrapped command is judged as itself. This is the one table of
// such wrappers; the engine and the exported reader both follow it.
type runWrapper struct {
	spec optSpec
	skip int // operands before the command: timeout's DURATION, flock's FILE
	// shellOpt: after the operands, this option (and its long form) gives
	// a command string run by sh -c instead (flock FILE -c 'cmd').
	shellOpt, shellLong string
}

var runWrappers = lazy[map[string]runWrapper]{build: func() map[string]runWrapper {
	return map[string]runWrapper{
		"nice":    {spec: optSpec{valued: "n", longVal: []string{"adjustment"}}},
		"nohup":   {},
		"stdbuf":  {spec: optSpec{valued: "ioe", longVal: []string{"input", "output", "error"}}},
		"ionice":  {spec: optSpec{flags: "t", valued: "cn", longVal: []string{"class", "classdata"}}},
		"setsid":  {spec: optSpec{flags: "cfw", long: []string{"ctty", "fork", "wait"}}},
		"time":    {spec: optSpec{flags: "pvaq", valued: "fo", long: []string{"portability", "verbose", "append", "quiet"}, longVal: []string{"format", "output"}}},
		"timeout": {spec: optSpec{flags: "v", valued: "sk", long: []string{"preserve-status", "foreground", "verbose"}, longVal: []string{"signal", "kill-after"}}, skip: 1},
		// util-linux flock(1): flock [-sxun] [-w secs] [-E code] FILE cmd…, or FILE -c 'cmd'
		"flock": {spec: optSpec{flags: "sexunoF", valued: "wE", long: []string{"shared", "exclusive", "unlock", "nonblock", "close", "no-fork", "verbose"}, longVal: []string{"timeout", "conflict-exit-code"}},
			skip: 1, shellOpt: "-c", shellLong: "--command"}, // the lock file is opened, never truncated
		"chronic":    {spec: optSpec{flags: "ev"}},                                      // moreutils: runs cmd, shows output on failure
		"unbuffer":   {spec: optSpec{flags: "p"}},                                       // expect's unbuffer [-p] cmd
		"taskset":    {spec: optSpec{flags: "a", long: []string{"all-tasks"}}, skip: 1}, // taskset MASK cmd (-p/-c not followed: they ask)
		"chrt":       {spec: optSpec{flags: "bfiorRe", long: []string{"batch", "fifo", "idle", "other", "rr", "reset-on-fork"}}, skip: 1},
		"nocache":    {},
		"caffeinate": {spec: optSpec{flags: "dimsu", valued: "tw"}}, // macOS: keeps the machine awake while cmd runs
		"catchsegv":  {},
	}
}}

var watchSpec = optSpec{flags: "bcCdegptrx", valued: "nq", long: []string{"beep", "color", "no-color", "differences", "errexit", "chgexit", "precise", "no-title", "no-rerun", "exec", "no-wrap"}, longVal: []string{"interval", "equexit", "differences"}}

// readWrapper reads prog (a program's resolved name) as a wrapper of rest.
func readWrapper(prog string, rest []word) (wrapRead, bool) {
	k, ok := wrapKinds.get()[prog]
	if !ok {
		return wrapRead{}, false
	}
	r := wrapRead{kind: k, name: prog, rest: rest, good: true}
	onVal := func(opt, val string) { r.vals = append(r.vals, optVal{opt, val}) }
	switch k {
	case wrapEnv:
		r.n, r.good = skipOpts(rest, envSpec, onVal)
	case wrapPlain:
		if prog == "nice" && len(rest) > 0 && len(rest[0].val) > 1 && rest[0].val[0] == '-' && isDigits(rest[0].val[1:]) {
			r.rest = rest[1:]
		}
		rw := runWrappers.get()[prog]
		r.n, r.good = skipOpts(r.rest, rw.spec, onVal)
		if r.good && r.n+rw.skip < len(r.rest) && rw.shellOpt != "" {
			// flock FILE -c 'cmd': the string is run by sh -c.
			if o := r.rest[r.n+rw.skip].val; o == rw.shellOpt || o == rw.shellLong {
				r.shell = true
			}
		}
	case wrapCommand:
		r.n, r.good = skipOpts(rest, optSpec{flags: "pvV"}, nil)
	case wrapExec:
		r.n, r.good = skipOpts(rest, optSpec{flags: "cl", valued: "a"}, nil)
	case wrapXargs:
		r.n, r.good = skipOpts(rest, xargsSpec, onVal)
	case wrapWatch:
		r.n, r.good = skipOpts(rest, watchSpec, nil)
	}
	return r, true
}

// lookup reports command -v / -V: it looks a name up and runs nothing.
func (r wrapRead) lookup() bool {
	if r.kind != wrapCommand {
		return false
	}
	for _, a := range r.rest[:r.n] {
		if a.val == "-v" || a.val == "-V" || strings.HasPrefix(a.val, "-") && strings.ContainsAny(a.val, "vV") {
			return true
		}
	}
	return false
}

// envSplit is the words env -S spells (nil without -S); ok is false when
// a string cannot be split the way env splits it.
func (r wrapRead) envSplit() (split []word, ok bool) {
	return r.envSplitHome("")
}

// envSplitHome is envSplit with ${HOME} known to be home (when not "").
func (r wrapRead) envSplitHome(home string) (split []word, ok bool) {
	ok = true
	for _, v := range r.vals {
		if v.opt == "-S" || v.opt == "--split-string" {
			ws, good := splitEnvS(v.val, home)
			split = append(split, ws...)
			ok = ok && good
		}
	}
	return split, ok
}

// envCommand is what follows env's options: its NAME=value words and the
// command after them.
func (r wrapRead) envCommand() (assigns, cmd []word) {
	cmd = r.rest[r.n:]
	for len(cmd) > 0 {
		name, _, isAssign := strings.Cut(cmd[0].val, "=")
		if !isAssign || !validName(name) {
			break
		}
		assigns = append(assigns, cmd[0])
		cmd = cmd[1:]
	}
	return assigns, cmd
}

// inner is the command the wrapper runs, as the engine follows it; nil
// when it runs none that can be read in its words (sudo, nsenter, watch,
// command -v, an unknown option, no command at all). env -S gives env
// followed by the words its string spells.
func (r wrapRead) inner() []word {
	if !r.good || r.lookup() {
		return nil
	}
	switch r.kind {
	case wrapPriv, wrapOpaque, wrapWatch:
		return nil
	case wrapEnv:
		split, ok := r.envSplit()
		if !ok {
			return nil
		}
		if split != nil {
			return append(append([]word{{val: "env", static: true}}, split...), r.rest[r.n:]...)
		}
		_, cmd := r.envCommand()
		if len(cmd) == 0 {
			return nil
		}
		return cmd
	case wrapPlain:
		rw := runWrappers.get()[programBase(r.name)]
		at := r.n + rw.skip
		if at >= len(r.rest) {
			return nil
		}
		if r.shell {
			// flock FILE -c CMD: sh -c CMD, with nothing after it
			if at+2 != len(r.rest) {
				return nil
			}
			return []word{{val: "sh", static: true}, {val: "-c", static: true}, r.rest[at+1]}
		}
		return r.rest[at:]
	}
	if r.n >= len(r.rest) {
		return nil
	}
	return r.rest[r.n:]
}

// wrapper judges a wrapper program. ok is false when args[0] is not a
// wrapper; inner is nil when the wrapper was fully judged here.
func (x *cmdCtx) wrapper(args []word) (inner []word, ok bool) {
	name := args[0].val
	r, ok := readWrapper(name, args[1:])
	if !ok {
		return nil, false
	}
	rest := r.rest
	if dynamicWrapperOption(r) && !x.durationFromVariable(args, r) { // wrapduration.go
		// nice -n${IFS}10${IFS}rm${IFS}-rf${IFS}/ is nice -n 10 rm -rf /:
		// an unquoted expansion among a wrapper's options may split into
		// the command it runs, which then goes unjudged.
		x.add(Ask, RuleShellDynamicArg, "a word before the command "+name+" runs comes from an expansion, which may split into that command")
		return nil, true
	}
	switch r.kind {
	case wrapPriv:
		x.add(Deny, RuleWrapperPriv, name+" changes privileges, which the coder may never do")
		return nil, true
	case wrapOpaque:
		if x.judgeAttach(args) { // privtools.go: gdb -p PID, strace -p PID
			return nil, true
		}
		if name == "valgrind" {
			if inner, ok := x.valgrindInner(args[1:]); ok { // valgrind.go
				return inner, true
			}
		}
		if name == "gdb" {
			if inner, ok := x.gdbInner(args[1:]); ok { // gdb.go
				return inner, true
			}
		}
		if name == "strace" {
			if inner, ok := x.straceInner(args[1:]); ok { // tracers.go
				return inner, true
			}
		}
		if name == "bear" {
			if inner, ok := x.bearInner(args[1:]); ok { // tracers.go
				return inner, true
			}
		}
		// Runs another program in a way the policy does not model.
		x.askWrapper(name+" runs other programs in a way the policy does not judge", args) // innerdeny.go: strace -f rm -rf ~
		return nil, true
	case wrapEnv:
		for _, v := range r.vals {
			if v.opt == "-C" || v.opt == "--chdir" {
				x.add(Ask, RuleWrapperUnknown, "env --chdir changes where the command runs")
			}
		}
		if !r.good {
			x.askWrapper("an env option the policy does not know", args) // innerdeny.go: env -S… rm -rf ~
			return nil, true
		}
		split, splitOK := r.envSplitHome(x.c.home)
		if !splitOK {
			x.add(Ask, RuleShellDynamicArg, "env -S splits a string the policy cannot split the same way")
			return nil, true
		}
		if split != nil {
			// env -S 'sh -c "…"' is judged by the command it spells.
			x.add(Allow, RuleShellBuiltin, "env -S runs the command its string spells, which is judged on its own")
			x.nested(append(append([]word{{val: "env", static: true}}, split...), r.rest[r.n:]...), "env -S")
			return nil, true
		}
		assigns, cmd := r.envCommand()
		for _, a := range assigns {
			name, val, _ := strings.Cut(a.val, "=")
			x.part.Assigns = append(x.part.Assigns, a.val)
			x.addF(envVarWordFinding(name, word{val: val, static: a.static}, false))
		}
		if len(cmd) == 0 {
			x.envListed() // envscreen.go
			return nil, true
		}
		return cmd, true
	case wrapPlain:
		for _, v := range r.vals {
			if name == "time" && (v.opt == "-o" || v.opt == "--output") {
				x.writeStr(v.val)
			}
		}
		return x.plainWrapper(name, r)
	case wrapCommand:
		if r.lookup() {
			x.add(Allow, RuleReadOnly, "looks up a command")
			return nil, true
		}
		if !r.good {
			x.add(Ask, RuleWrapperUnknown, "a command option the policy does not know")
			return nil, true
		}
		if r.n >= len(rest) {
			x.add(Allow, RuleShellBuiltin, "does nothing")
			return nil, true
		}
		return r.inner(), true
	case wrapBuiltin:
		if len(rest) == 0 {
			x.add(Allow, RuleShellBuiltin, "does nothing")
			return nil, true
		}
		return rest, true
	case wrapExec:
		if !r.good {
			x.add(Ask, RuleWrapperUnknown, "an exec option the policy does not know")
			return nil, true
		}
		if r.n >= len(rest) {
			x.add(Allow, RuleShellBuiltin, "changes this shell's file descriptors")
			return nil, true
		}
		return r.inner(), true
	case wrapBox:
		if len(rest) == 0 {
			x.add(Allow, RuleReadOnly, "lists applets")
			return nil, true
		}
		return rest, true
	case wrapXargs:
		x.part.Dynamic = true
		for _, v := range r.vals {
			if v.opt == "-a" || v.opt == "--arg-file" {
				x.readStr(v.val)
			}
		}
		if !r.good {
			x.add(Ask, RuleWrapperUnknown, "an xargs option the policy does not know")
			return nil, true
		}
		if r.n >= len(rest) {
			x.add(Allow, RuleReadOnly, "xargs echoes its input")
			return nil, true // runs echo
		}
		if items, ok := x.xargsItems(rest); ok { // xargsargfile.go
			// echo ./internal/... | xargs go vet runs go vet ./internal/...
			// (substassign.go): the command with the items it will get.
			x.part.Wrappers = append(x.part.Wrappers, "xargs")
			x.command(append(append([]word(nil), rest[r.n:]...), items...), 8)
			return nil, true
		}
		repl, argFile := "", (*word)(nil)
		for _, v := range r.vals {
			switch v.opt {
			case "-I", "--replace":
				repl = v.val
			case "-a", "--arg-file":
				argFile = &word{val: v.val, static: allStatic(rest[:r.n])}
			}
		}
		if x.inputShell("xargs", rest[r.n:], repl, true, argFile) { // inputshell.go
			return nil, true
		}
		if argFile == nil && x.xargsListedOff(rest[r.n:], repl) { // xargslisted_off.go
			return nil, true
		}
		inner := rest[r.n].val
		if b, ok := resolvedProgram(inner); ok {
			inner = b
		}
		innerArgs := vals(rest[r.n+1:])
		if (inner == "npx" || inner == "bunx") && len(innerArgs) > 0 && !strings.HasPrefix(innerArgs[0], "-") {
			// npx eslint: the tool it runs, judged again as its own command
			inner, innerArgs = innerArgs[0], innerArgs[1:]
		}
		if x.c.sandbox && xargsFileTools.has(inner) && xargsNamesOnly(inner, innerArgs) {
			// The names come from the input; the sandbox keeps what the
			// tool does to them inside the workspace.
			x.add(Allow, RuleSandboxCode, "xargs passes names read at run time to "+inner+", inside the sandbox")
		} else {
			x.add(Ask, RuleWrapperXargs, "xargs runs a command with arguments read at run time")
		}
		return r.inner(), true
	case wrapWatch:
		if !r.good || r.n >= len(rest) {
			x.add(Ask, RuleWrapperUnknown, "a watch form the policy does not know")
			return nil, true
		}
		x.add(Ask, RuleWrapperUnknown, "watch runs a command over and over")
		sub := x.cw.copy()
		x.c.shell(strings.Join(vals(rest[r.n:]), " "), &sub, x.s.depth+1, "watch")
		return nil, true
	}
	return nil, false
}

// plainWrapper judges a runWrappers program: the command it runs is
// judged as itself.
func (x *cmdCtx) plainWrapper(name string, r wrapRead) ([]word, bool) {
	if !r.good {
		x.askWrapper("a "+name+" option the policy does not know", append([]word{{val: name, static: true}}, r.rest...)) // innerdeny.go
		return nil, true
	}
	rw := runWrappers.get()[name]
	if r.n >= len(r.rest) && rw.skip == 0 {
		x.add(Allow, RuleReadOnly, name+" with no command")
		return nil, true
	}
	inner := r.inner()
	if inner == nil {
		x.add(Ask, RuleWrapperUnknown, "a "+name+" form the policy does not know")
		return nil, true
	}
	return inner, true
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i > 0 && c >= '0' && c <= '9') {
			continue
		}
		return false
	}
	return true
}

// hasOptS is hasOpt over plain strings.
func hasOptS(args []string, short string, long ...string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if strings.HasPrefix(a, "--") {
			name, _, _ := strings.Cut(a, "=")
			if contains(long, name) || contains(long, a) {
				return true
			}
			continue
		}
		if strings.HasPrefix(a, "-") && strings.ContainsAny(a[1:], short) {
			return true
		}
	}
	return false
}

// allStatic reports whether every word is static.
func allStatic(ws []word) bool {
	for _, w := range ws {
		if !w.static {
			return false
		}
	}
	return true
}

// dynamicWrapperOption finds a word before a wrapper's command (its
// options and positional words, all its words when it has none) that is
// not static; env's NAME=value words are
// the command's environment, judged as assignments.
func dynamicWrapperOption(r wrapRead) bool {
	n := r.n
	if r.kind == wrapPlain {
		n += runWrappers.get()[programBase(r.name)].skip // timeout's DURATION: timeout $T go test
	}
	n = min(n, len(r.rest))
	if r.kind == wrapPriv || r.kind == wrapOpaque {
		return false // asked or denied whatever the options
	}
	for _, w := range r.rest[:n] {
		if w.static {
			continue
		}
		if name, _, ok := strings.Cut(w.val, "="); ok && r.kind == wrapEnv && validName(name) {
			continue
		}
		return true
	}
	return false
}

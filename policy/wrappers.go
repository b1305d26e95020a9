package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// optSpec describes a wrapper's options: which take a value.
type optSpec struct {
	flags    string   // single-letter options without a value
	valued   string   // single-letter options that take a value
	long     []string // long options without a value
	longVal  []string // long options that take a value (--x=v or --x v)
	stopAtNo bool     // the first non-option ends the options (always true for wrappers)
}

// skipOpts consumes options from args (args[0] is the first candidate). It
// returns the index of the first operand, and false when an option is not
// in the spec. onVal sees every valued option and its value.
func skipOpts(args []word, sp optSpec, onVal func(opt, val string)) (int, bool) {
	i := 0
	for i < len(args) {
		a := args[i].val
		if a == "--" {
			return i + 1, true
		}
		if len(a) < 2 || a[0] != '-' {
			return i, true
		}
		if strings.HasPrefix(a, "--") {
			name, val, hasVal := strings.Cut(a[2:], "=")
			switch {
			case contains(sp.long, name) && !hasVal:
				i++
			case contains(sp.longVal, name):
				if !hasVal {
					if i+1 >= len(args) {
						return i, false
					}
					val = args[i+1].val
					i++
				}
				if onVal != nil {
					onVal("--"+name, val)
				}
				i++
			default:
				return i, false
			}
			continue
		}
		// A cluster of short options: -abc, or -n5, or -n 5.
		j := 1
		for j < len(a) {
			ch := a[j]
			switch {
			case strings.IndexByte(sp.flags, ch) >= 0:
				j++
			case strings.IndexByte(sp.valued, ch) >= 0:
				val := a[j+1:]
				if val == "" {
					if i+1 >= len(args) {
						return i, false
					}
					val = args[i+1].val
					i++
				}
				if onVal != nil {
					onVal("-"+string(ch), val)
				}
				j = len(a)
			default:
				return i, false
			}
		}
		i++
	}
	return i, true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

var (
	envSpec     = optSpec{flags: "i0v", valued: "uCS", long: []string{"ignore-environment", "null", "debug"}, longVal: []string{"unset", "chdir", "split-string"}}
	timeoutSpec = optSpec{flags: "v", valued: "sk", long: []string{"preserve-status", "foreground", "verbose"}, longVal: []string{"signal", "kill-after"}}
	niceSpec    = optSpec{valued: "n", longVal: []string{"adjustment"}}
	stdbufSpec  = optSpec{valued: "ioe", longVal: []string{"input", "output", "error"}}
	ioniceSpec  = optSpec{flags: "t", valued: "cn", longVal: []string{"class", "classdata"}}
	setsidSpec  = optSpec{flags: "cfw", long: []string{"ctty", "fork", "wait"}}
	timeSpec    = optSpec{flags: "pvaq", valued: "fo", long: []string{"portability", "verbose", "append", "quiet"}, longVal: []string{"format", "output"}}
	xargsSpec   = optSpec{flags: "0rtpx", valued: "dEILnPsa", long: []string{"null", "no-run-if-empty", "verbose", "interactive", "exit", "open-tty", "show-limits"},
		longVal: []string{"delimiter", "eof", "max-lines", "max-args", "max-procs", "max-chars", "arg-file", "replace", "process-slot-var"}}
)

// wrapper strips a wrapper program. ok is false when args[0] is not a
// wrapper; inner is nil when the wrapper was fully judged here.
func (x *cmdCtx) wrapper(args []word) (inner []word, ok bool) {
	rest := args[1:]
	switch args[0].val {
	case "sudo", "doas", "su", "pkexec", "runuser", "sg", "newgrp", "run0", "calife", "please":
		x.add(Deny, RuleWrapperPriv, args[0].val+" changes privileges, which the coder may never do")
		return nil, true
	case "nsenter", "unshare", "chroot", "firejail", "bwrap", "systemd-run", "setpriv", "capsh", "proot", "fakeroot", "faketime", "strace", "ltrace", "gdb", "valgrind", "script", "expect", "unbuffer", "rlwrap", "flock", "parallel", "entr", "nodemon", "tmux", "screen", "dtach":
		// Runs another program in a way the policy does not model.
		x.add(Ask, RuleWrapperUnknown, args[0].val+" runs other programs in a way the policy does not judge")
		return nil, true
	case "env":
		var split []word
		splitOK := true
		n, good := skipOpts(rest, envSpec, func(opt, val string) {
			switch opt {
			case "-C", "--chdir":
				x.add(Ask, RuleWrapperUnknown, "env --chdir changes where the command runs")
			case "-S", "--split-string":
				// env -S 'sh -c "…"' is judged by the command it spells.
				ws, ok := splitString(val, x.c.home)
				split = append(split, ws...)
				splitOK = splitOK && ok
			}
		})
		if !good {
			x.add(Ask, RuleWrapperUnknown, "an env option the policy does not know")
			return nil, true
		}
		if !splitOK {
			x.add(Ask, RuleShellDynamicArg, "env -S splits a string the policy cannot split the same way")
			return nil, true
		}
		if split != nil {
			x.add(Allow, RuleShellBuiltin, "env -S runs the command its string spells, which is judged on its own")
			argv := append([]word{{val: "env", static: true}}, split...)
			x.nested(append(argv, rest[n:]...), "env -S")
			return nil, true
		}
		rest = rest[n:]
		for len(rest) > 0 {
			name, val, isAssign := strings.Cut(rest[0].val, "=")
			if !isAssign || !validName(name) {
				break
			}
			x.part.Assigns = append(x.part.Assigns, rest[0].val)
			x.addF(envVarFinding(name, val, false))
			rest = rest[1:]
		}
		if len(rest) == 0 {
			x.add(Ask, RuleEnvPrint, "printing the environment can reveal secrets")
			return nil, true
		}
		return rest, true
	case "timeout":
		n, good := skipOpts(rest, timeoutSpec, nil)
		if !good || n+1 >= len(rest) {
			x.add(Ask, RuleWrapperUnknown, "a timeout form the policy does not know")
			return nil, true
		}
		return rest[n+1:], true
	case "nice":
		if len(rest) > 0 && len(rest[0].val) > 1 && rest[0].val[0] == '-' && isDigits(rest[0].val[1:]) {
			rest = rest[1:]
		}
		return x.simpleWrapper(args[0].val, rest, niceSpec)
	case "nohup":
		return x.simpleWrapper("nohup", rest, optSpec{})
	case "stdbuf":
		return x.simpleWrapper("stdbuf", rest, stdbufSpec)
	case "ionice":
		return x.simpleWrapper("ionice", rest, ioniceSpec)
	case "setsid":
		return x.simpleWrapper("setsid", rest, setsidSpec)
	case "time":
		return x.simpleWrapperVal("time", rest, timeSpec, func(opt, val string) {
			if opt == "-o" || opt == "--output" {
				x.writeStr(val)
			}
		})
	case "command":
		n, good := skipOpts(rest, optSpec{flags: "pvV"}, nil)
		for _, a := range rest[:n] {
			if a.val == "-v" || a.val == "-V" || strings.HasPrefix(a.val, "-") && strings.ContainsAny(a.val, "vV") {
				x.add(Allow, RuleReadOnly, "looks up a command")
				return nil, true
			}
		}
		if !good {
			x.add(Ask, RuleWrapperUnknown, "a command option the policy does not know")
			return nil, true
		}
		if n >= len(rest) {
			x.add(Allow, RuleShellBuiltin, "does nothing")
			return nil, true
		}
		return rest[n:], true
	case "builtin":
		if len(rest) == 0 {
			x.add(Allow, RuleShellBuiltin, "does nothing")
			return nil, true
		}
		return rest, true
	case "exec":
		n, good := skipOpts(rest, optSpec{flags: "cl", valued: "a"}, nil)
		if !good {
			x.add(Ask, RuleWrapperUnknown, "an exec option the policy does not know")
			return nil, true
		}
		if n >= len(rest) {
			x.add(Allow, RuleShellBuiltin, "changes this shell's file descriptors")
			return nil, true
		}
		return rest[n:], true
	case "busybox", "toybox":
		if len(rest) == 0 {
			x.add(Allow, RuleReadOnly, "lists applets")
			return nil, true
		}
		return rest, true
	case "xargs":
		x.part.Dynamic = true
		n, good := skipOpts(rest, xargsSpec, func(opt, val string) {
			if opt == "-a" || opt == "--arg-file" {
				x.readStr(val)
			}
		})
		if !good {
			x.add(Ask, RuleWrapperUnknown, "an xargs option the policy does not know")
			return nil, true
		}
		if n >= len(rest) {
			x.add(Allow, RuleReadOnly, "xargs echoes its input")
			return nil, true // runs echo
		}
		inner := rest[n].val
		if b, ok := resolvedProgram(inner); ok {
			inner = b
		}
		if x.c.sandbox && xargsFileTools[inner] && xargsNamesOnly(inner, vals(rest[n+1:])) {
			// The names come from the input; the sandbox keeps what the
			// tool does to them inside the workspace.
			x.add(Allow, RuleSandboxCode, "xargs passes names read at run time to "+inner+", inside the sandbox")
		} else {
			x.add(Ask, RuleWrapperXargs, "xargs runs a command with arguments read at run time")
		}
		return rest[n:], true
	case "watch":
		n, good := skipOpts(rest, optSpec{flags: "bcCdegptrx", valued: "nq", long: []string{"beep", "color", "no-color", "differences", "errexit", "chgexit", "precise", "no-title", "no-rerun", "exec", "no-wrap"}, longVal: []string{"interval", "equexit", "differences"}}, nil)
		if !good || n >= len(rest) {
			x.add(Ask, RuleWrapperUnknown, "a watch form the policy does not know")
			return nil, true
		}
		x.add(Ask, RuleWrapperUnknown, "watch runs a command over and over")
		sub := x.cw.copy()
		x.c.shell(strings.Join(vals(rest[n:]), " "), &sub, x.s.depth+1, "watch")
		return nil, true
	}
	return nil, false
}

func (x *cmdCtx) simpleWrapper(name string, rest []word, sp optSpec) ([]word, bool) {
	return x.simpleWrapperVal(name, rest, sp, nil)
}

func (x *cmdCtx) simpleWrapperVal(name string, rest []word, sp optSpec, onVal func(opt, val string)) ([]word, bool) {
	n, good := skipOpts(rest, sp, onVal)
	if !good {
		x.add(Ask, RuleWrapperUnknown, "a "+name+" option the policy does not know")
		return nil, true
	}
	if n >= len(rest) {
		x.add(Allow, RuleReadOnly, name+" with no command")
		return nil, true
	}
	return rest[n:], true
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

// splitString splits the value of env -S into words the way env does for
// plain text: quotes group, nothing expands. Text using env's own escapes
// or ${VAR} expansion is not split (ok is false).
func splitString(v, home string) ([]word, bool) {
	if strings.ContainsAny(v, "\\$#`\x00") {
		return nil, false
	}
	p := parserPool.Get().(*syntax.Parser)
	f, err := p.Parse(strings.NewReader(v), "")
	parserPool.Put(p)
	if err != nil || len(f.Stmts) != 1 {
		return nil, false
	}
	st := f.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(st.Redirs) > 0 || len(call.Assigns) > 0 || st.Negated || st.Background {
		return nil, false
	}
	out := make([]word, 0, len(call.Args))
	for _, a := range call.Args {
		w := decodeWord(a, "")
		if !w.static || w.pattern || w.tilde || strings.HasPrefix(w.val, "~") {
			return nil, false
		}
		out = append(out, w)
	}
	return out, true
}

// xargsFileTools read or edit the files xargs names and run nothing else
// (their own options are still judged).
var xargsFileTools = setOf("sed", "grep", "egrep", "fgrep", "rg", "wc", "ls", "stat",
	"file", "du", "gofmt", "goimports", "prettier", "black", "ruff", "isort", "eslint", "touch", "basename",
	"dirname", "echo", "md5sum", "sha256sum", "sha1sum", "dos2unix", "clang-format", "rustfmt", "realpath", "mkdir")

// xargsNamesOnly reports whether the tool, given unseen names, prints no
// file's contents: sed edits in place, grep and rg list or count.
func xargsNamesOnly(tool string, args []string) bool {
	switch tool {
	case "sed":
		return hasOptS(args, "i", "--in-place")
	case "grep", "egrep", "fgrep", "rg":
		return hasOptS(args, "lLcq", "--files-with-matches", "--files-without-match", "--count", "--quiet")
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

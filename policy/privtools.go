package policy

import (
	"path/filepath"
	"strings"
)

// Privilege tools (issue 32, polcorp7 deny/priv): programs that give a
// file capabilities (setcap), mount or remount a filesystem, or attach a
// debugger or tracer to a running process (gdb -p, strace -p, ltrace -p,
// lldb -p) reach past what the coder's own commands may change or read:
// another process's memory holds its keys. They are denied, as sudo is.
// Listing mounts (mount, mount -l, findmnt) and tracing a command the
// line starts (strace -f ./a.out) are judged as before.

// addPrivToolHandlers registers setcap and the mount handlers.
func addPrivToolHandlers(handlers map[string]handler) {
	handlers["setcap"] = func(x *cmdCtx, args []word) {
		x.add(Deny, RuleWrapperPriv, "setcap gives a program privileges, which the coder may never do")
	}
	for _, n := range []string{"mount", "umount"} {
		prev := handlers[n]
		handlers[n] = func(x *cmdCtx, args []word) {
			if n == "mount" && (len(args) == 1 || len(args) == 2 && (args[1].val == "-l" || args[1].val == "--show-labels")) {
				x.add(Allow, RuleReadOnly, "lists mounted filesystems")
				return
			}
			if len(args) > 1 {
				x.add(Deny, RuleSystem, n+" mounts, remounts or unmounts a filesystem, which the coder may never do")
				return
			}
			if prev != nil {
				prev(x, args)
			}
		}
	}
}

// attachTools are the debuggers and tracers whose -p PID attaches to a
// running process.
var attachTools = wordSet{words: []string{"gdb", "strace", "ltrace", "lldb", "perf", "gcore", "py-spy", "rbspy"}}

// judgeAttach denies a debugger or tracer attaching to a process the line
// did not start, and reports whether it did.
func (x *cmdCtx) judgeAttach(args []word) bool {
	prog := filepath.Base(args[0].val)
	if !attachTools.has(prog) {
		return false
	}
	for i, w := range args[1:] {
		v := w.val
		attach := v == "-p" || v == "--pid" || v == "--attach-pid" || strings.HasPrefix(v, "--pid=") ||
			strings.HasPrefix(v, "-p") && len(v) > 2 && isDigits(v[2:]) && prog != "perf"
		if prog == "gcore" && i == 0 || (prog == "py-spy" || prog == "rbspy") && v == "dump" {
			attach = attach || !strings.HasPrefix(v, "-")
		}
		if attach {
			x.add(Deny, RuleWrapperPriv, prog+" attaches to a running process and can read or change its memory, which the coder may never do")
			return true
		}
	}
	return false
}

package policy

import "strings"

// gdb -batch -ex run ./a.out, the way a coder gets a backtrace of a crash
// of the project's own program: inside the sandbox, with only the options
// and -ex commands below, in batch mode, the program gdb runs is what is judged, as under
// valgrind. Any other command (shell, pipe, python, source, run with
// arguments or redirections, which gdb hands to a shell), a second operand
// (a core file or a process to attach to), or the sandbox off keeps gdb
// opaque: it asks. (With the sandbox off gdb's own start-up files and
// auto-loaded scripts are the person's machine's.)

// gdbCommands are the -ex commands that run the program and print where
// it is; none starts a shell, loads a file or writes one.
var gdbCommands = wordSet{words: []string{"run", "r", "start", "continue", "c", "next", "n", "step", "s", "bt", "backtrace",
	"bt full", "backtrace full", "where", "thread apply all bt", "thread apply all bt full", "thread apply all backtrace",
	"info registers", "info locals", "info args", "info frame", "info threads", "info sharedlibrary", "quit", "q", "kill",
	"set pagination off", "set confirm off", "set print pretty on", "set width 0", "set height 0"}}

// gdbInner returns the command gdb runs; ok is false when gdb stays
// opaque.
func (x *cmdCtx) gdbInner(args []word) ([]word, bool) {
	x.gdbShellCommands("gdb", args) // inlinerunners.go: -ex '!CMD', -ex 'shell CMD'
	if !x.c.sandbox {
		return nil, false
	}
	batch := false // without -batch gdb reads commands from its terminal
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.static {
			return nil, false
		}
		v := a.val
		switch {
		case v == "-batch" || v == "--batch" || v == "-q" || v == "-quiet" || v == "--quiet" || v == "-silent" || v == "--silent" ||
			v == "-nx" || v == "--nx" || v == "-n" || v == "-nh" || v == "--nh" || v == "-return-child-result" || v == "--return-child-result":
			batch = batch || strings.HasSuffix(v, "batch")
		case v == "-ex" || v == "--ex" || v == "-eval-command" || v == "--eval-command":
			if i+1 >= len(args) || !args[i+1].static || !gdbCommands.has(strings.Join(strings.Fields(args[i+1].val), " ")) {
				return nil, false
			}
			i++
		case strings.HasPrefix(v, "-ex=") || strings.HasPrefix(v, "--ex=") || strings.HasPrefix(v, "--eval-command="):
			_, c, _ := strings.Cut(v, "=")
			if !gdbCommands.has(strings.Join(strings.Fields(c), " ")) {
				return nil, false
			}
		case v == "--args" || v == "-args":
			if i+1 >= len(args) || !batch {
				return nil, false
			}
			return args[i+1:], true
		case strings.HasPrefix(v, "-"):
			return nil, false
		default:
			if i != len(args)-1 || !batch {
				return nil, false // a core file or a process to attach to
			}
			return args[i:], true
		}
	}
	return nil, false
}

package policy

import "strings"

// valgrind runs one program under its tools; with options the policy
// knows (checks, counts, where the log goes) the program is what is
// judged, as under timeout. Any other option (--db-command runs a
// command; --vgdb talks to a debugger) keeps valgrind opaque.

var valgrindOptions = wordSet{words: []string{"leak-check", "show-leak-kinds", "track-origins", "error-exitcode", "tool",
	"num-callers", "errors-for-leak-kinds", "trace-children", "show-reachable", "undef-value-errors", "read-var-info",
	"max-stackframe", "main-stacksize", "child-silent-after-fork", "gen-suppressions", "suppressions", "log-file", "xml",
	"xml-file", "keep-debuginfo", "fair-sched", "time-stamp", "track-fds", "expensive-definedness-checks", "show-error-list", "s"}}

// valgrindInner returns the command valgrind runs, judging its options'
// files; ok is false when an option is not known.
func (x *cmdCtx) valgrindInner(args []word) ([]word, bool) {
	for i, a := range args {
		v := a.val
		if !a.static {
			return nil, false
		}
		if !strings.HasPrefix(v, "-") {
			return args[i:], true
		}
		switch v {
		case "-q", "--quiet", "-v", "--verbose", "-s":
			continue
		}
		name, val, _ := strings.Cut(strings.TrimPrefix(v, "--"), "=")
		if !strings.HasPrefix(v, "--") || !valgrindOptions.has(name) {
			return nil, false
		}
		switch name {
		case "log-file", "xml-file":
			x.writeStr(val)
		case "suppressions":
			x.readStr(val)
		}
	}
	return nil, false
}

package policy

import "strings"

// Everyday reads agents issue (#32): a dated folder name, a formatter of
// test output. (less and more stay asked even with only a file: a coder
// given a terminal, as Codex's, can type a !command into them.)

// dateToken: a date +FORMAT whose output is one word with no folder in
// it — only the numeric directives (%F is 2026-12-06, %s seconds) and
// - _ . : between them — so $(date +%F) in a path names one folder below
// where it is written. Any other text or directive (a blank, a /, %c, %A)
// leaves the substitution unjudged.
func dateToken(format string) bool {
	if format == "" {
		return false
	}
	for i := 0; i < len(format); i++ {
		switch c := format[i]; {
		case c == '%':
			if i+1 >= len(format) || !strings.ContainsRune("FYmdHMSsjyuVGTR", rune(format[i+1])) {
				return false
			}
			i++
		case c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == ':':
		default:
			return false
		}
	}
	return true
}

// testOutputFormatter: xcpretty and xcbeautify read a test run's output on
// standard input and print it formatted; a report they are told to write
// (-o/--output, xcpretty's --report FORMAT) is judged as a write.
func testOutputFormatter(x *cmdCtx, args []word) {
	x.add(Allow, RuleReadOnly, args[0].val+" formats a test run's output")
	for i := 1; i < len(args); i++ {
		a := args[i]
		name, val, has := strings.Cut(a.val, "=")
		switch {
		case !a.static:
			x.add(Ask, RuleUnknownCommand, args[0].val+" "+quoteShort(a.val)+" is not known before it runs")
			return
		case name == "-o" || name == "--output" || name == "--report-path" || name == "--junit-report-filename":
			if !has {
				if i+1 >= len(args) {
					return
				}
				i++
				val = args[i].val
			}
			x.writeStr(val)
		case name == "-r" || name == "--report":
			if !has {
				i++
			}
		case a.val == "--color" || a.val == "--no-color" || a.val == "-s" || a.val == "--simple" || a.val == "-t" ||
			a.val == "--test" || a.val == "-k" || a.val == "--knock" || a.val == "--tap" || a.val == "-q" || a.val == "--quiet" ||
			a.val == "--is-ci" || a.val == "--renderer" || a.val == "--preserve-unbeautified" || a.val == "--disable-logging":
		default:
			x.add(Ask, RuleUnknownCommand, args[0].val+" option "+a.val+" the policy does not know")
			return
		}
	}
}

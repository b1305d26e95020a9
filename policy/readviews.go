package policy

import "strings"

// Process views and Delve in their read-only or project forms, sandbox on
// and off (issue 32, off29; polcorp13's `top -bn1 | head -15`, `jps -l`,
// `dlv test ./parser/ -- -test.run TestLex`). less keeps asking
// (editorcode.go).
//
//   - top -b (batch mode) prints the process table once per -n iteration
//     and reads nothing else, as `ps aux` does; without -b it is
//     interactive (its k and r keys signal and renice) and asks.
//   - jps lists the person's Java processes (pid, main class, arguments),
//     as `ps` and pgrep do; a host operand asks (it reaches jstatd over
//     RMI). jstack, jcmd and jmap attach to a process and keep asking.

// topCmd allows top in batch mode with options that only choose what it
// prints, and asks otherwise.
func topCmd(x *cmdCtx, args []word) {
	batch := false
	for i := 1; i < len(args); i++ {
		a := args[i]
		v := a.val
		if !a.static || !strings.HasPrefix(v, "-") || len(v) < 2 {
			x.add(Ask, RuleUnknownCommand, "top "+quoteShort(v)+" is an option the policy does not know")
			return
		}
		for j := 1; j < len(v); j++ {
			c := v[j]
			switch {
			case c == 'b':
				batch = true
			case strings.IndexByte("cHiSs1", c) >= 0:
			case strings.IndexByte("ndwoOuUpEe", c) >= 0:
				val := v[j+1:]
				if val == "" {
					if i+1 >= len(args) || !args[i+1].static {
						x.add(Ask, RuleUnknownCommand, "top -"+string(c)+" has no value the policy can read")
						return
					}
					i++
					val = args[i].val
				}
				if !plainToken(strings.NewReplacer(",", "", ".", "", "%", "").Replace(val)) {
					x.add(Ask, RuleUnknownCommand, "top -"+string(c)+" "+quoteShort(val)+" is a value the policy does not know")
					return
				}
				j = len(v)
			default:
				x.add(Ask, RuleUnknownCommand, "top "+quoteShort(v)+" is an option the policy does not know")
				return
			}
		}
	}
	if !batch {
		x.add(Ask, RuleUnknownCommand, "top is interactive (its keys signal and renice processes); top -b only prints")
		return
	}
	x.add(Allow, RuleReadOnly, "top -b prints the process table, as ps does")
}

// jpsCmd allows jps listing the local Java processes.
func jpsCmd(x *cmdCtx, args []word) {
	for _, a := range args[1:] {
		if !a.static || !(a.val == "-l" || a.val == "-m" || a.val == "-v" || a.val == "-q" || a.val == "-V" ||
			strings.HasPrefix(a.val, "-") && strings.Trim(a.val[1:], "lmvqV") == "" && len(a.val) > 1) {
			x.add(Ask, RuleNetTool, "jps "+quoteShort(a.val)+": a host or option the policy does not know (a host is reached over RMI)")
			return
		}
	}
	x.add(Allow, RuleReadOnly, "jps lists the local Java processes, as ps does")
}

// dlvCmd is Delve debugging the project's own test or program (off29;
// polcorp13's `dlv test ./parser/ -- -test.run TestLex`): `dlv test PKG…
// [-- ARGS]` builds and runs the package's tests as `go test PKG -args
// ARGS` does, `dlv debug PKG… [-- ARGS]` the program as `go run PKG ARGS`
// does, so each is judged as that go command. Its console reads only
// Delve's own commands (no shell escape). Any dlv option (--headless and
// --listen serve the debugger on the network, --init runs a command file,
// --build-flags can hand go -toolexec), other subcommands (attach, exec,
// connect, core) and an operand that is not a plain word ask.
func dlvCmd(x *cmdCtx, args []word) {
	if len(args) < 2 || !args[1].static || (args[1].val != "test" && args[1].val != "debug") {
		x.add(Ask, RuleUnknownCommand, "dlv: only `dlv test` and `dlv debug` of the project are judged")
		return
	}
	goArgs := []word{{val: "go", static: true}, {val: "test", static: true}}
	if args[1].val == "debug" {
		goArgs[1].val = "run"
	}
	rest := args[2:]
	for i, a := range rest {
		if a.static && a.val == "--" {
			if goArgs[1].val == "test" {
				goArgs = append(goArgs, word{val: "-args", static: true})
			}
			goArgs = append(goArgs, rest[i+1:]...)
			break
		}
		if !a.static || strings.HasPrefix(a.val, "-") {
			x.add(Ask, RuleUnknownCommand, "dlv "+quoteShort(a.val)+": an option or operand the policy does not judge")
			return
		}
		goArgs = append(goArgs, a)
	}
	if !x.c.sandbox {
		// Delve's console writes any file (transcript PATH, dump) and runs
		// Starlark (source): an agent holding the terminal can type them,
		// and no request shows it; less asks for the same reason (review)
		x.add(Ask, RuleUnknownCommand, "dlv "+args[1].val+" opens Delve's console, which can write files and run scripts outside what this request shows, and the sandbox is off")
		x.nested(goArgs, "dlv") // a deny of what it runs stands
		return
	}
	x.add(Allow, RuleBuildProject, "dlv "+args[1].val+" runs the project's "+map[string]string{"test": "tests", "debug": "program"}[args[1].val]+" under the debugger")
	x.nested(goArgs, "dlv")
}

package policy

import "strings"

// gotestsum runs `go test -json` with the arguments after -- and formats
// what it prints (gotest.tools/gotestsum). It is judged as that go test:
// its own options only choose the format, name report files it writes
// (--junitfile, --jsonfile: writes) or rerun failed tests. --raw-command
// runs the command after -- instead of go test, judged as that command;
// --post-run-command runs a command the line shows only as one word, and
// any option the policy does not know asks.

// gotestsumOwn are gotestsum's options: true when one takes a value.
var gotestsumOwn = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{
		"--format": true, "-f": true, "--format-hide-empty-pkg": false, "--format-icons": true, "--hide-summary": true,
		"--packages": true, "--no-color": false, "--debug": false, "--version": false, "--watch": false,
		"--rerun-fails": false, "--rerun-fails-max-failures": true, "--rerun-fails-report": true,
		"--rerun-fails-run-root-test": false, "--max-fails": true, "--junitfile": true, "--jsonfile": true,
		"--jsonfile-timing-events": true, "--junitfile-testsuite-name": true, "--junitfile-testcase-classname": true,
		"--junitfile-project-name": true, "--junitfile-hide-empty-pkg": false, "--junitfile-hide-skipped-tests": false,
		"--raw-command": false, "--watch-chdir": false, "--fail-on-empty": false,
	}
}}

// addGotestsumHandlers registers gotestsum.
func addGotestsumHandlers(handlers map[string]handler) {
	handlers["gotestsum"] = gotestsumCmd
}

func gotestsumCmd(x *cmdCtx, args []word) {
	rest := args[1:]
	raw := false
	var pkgs []word
	for len(rest) > 0 && rest[0].val != "--" {
		w := rest[0]
		name, val, has := strings.Cut(w.val, "=")
		takes, known := gotestsumOwn.get()[name]
		switch {
		case !w.static:
			x.add(Ask, RuleShellDynamicArg, "gotestsum "+quoteShort(w.val)+" is not known before it runs")
			return
		case !strings.HasPrefix(w.val, "-"):
			pkgs = append(pkgs, w) // gotestsum ./pkg/... is --packages
			rest = rest[1:]
			continue
		case !known:
			x.add(Ask, RuleBuildOption, "gotestsum option "+name+" is not known to the policy")
			return
		}
		if takes && !has {
			if len(rest) < 2 {
				x.add(Ask, RuleBuildOption, "gotestsum "+name+" has no value")
				return
			}
			val, rest = rest[1].val, rest[1:]
		}
		switch name {
		case "--junitfile", "--jsonfile", "--jsonfile-timing-events", "--rerun-fails-report":
			x.capturing(func() { x.writeStr(val) }) // tmpdir.go: a report in the private /tmp is scratch
		case "--packages":
			for _, p := range strings.Fields(val) {
				pkgs = append(pkgs, word{val: p, static: true})
			}
		case "--raw-command":
			raw = true
		}
		rest = rest[1:]
	}
	if len(rest) > 0 {
		rest = rest[1:] // --
	}
	if raw {
		if len(rest) == 0 {
			x.add(Ask, RuleBuildOption, "gotestsum --raw-command with no command")
			return
		}
		x.command(rest, 1)
		return
	}
	x.command(append(append([]word{{val: "go", static: true}, {val: "test", static: true}}, rest...), pkgs...), 1)
}

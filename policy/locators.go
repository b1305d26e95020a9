package policy

import (
	"regexp"
	"strings"
)

// Toolchain locators, Flask's CLI and gosec (polcorp14, issue 32: each
// asked as a program the policy does not know, in AGENTS.md/CLAUDE.md
// command lists of Swift, Python and Go projects):
//
//   - `xcrun --find TOOL` (-f), `xcode-select -p`, `pyenv which|whence
//     PROG`, `asdf which|where PROG`, `mise which|where PROG` print where
//     a program or toolchain is, as `rbenv which` and `rustup which` do:
//     read-only, on and off. Their other verbs (xcode-select -s, pyenv
//     global, mise use -g) change the person's setup and go to the earlier
//     handler, which asks.
//   - `flask [--app MODULE] routes|run|db upgrade…` imports the project's
//     application and runs it: the project's own code, allowed inside the
//     sandbox as `python manage.py check` is; with the sandbox off, and
//     for an --app outside the workspace, a server on a non-loopback host
//     or any other verb (shell), the earlier handler asks.
//   - gosec, the Go security scanner, reads the project and writes its
//     report inside it: a project tool (devtools.go).

// locatorVerbs are tool's verbs that print where a program is.
func locatorVerbs(tool string) []string {
	switch tool {
	case "pyenv":
		return []string{"which", "whence", "prefix", "root", "version", "version-name", "--version"}
	case "asdf", "mise":
		return []string{"which", "where", "current", "--version"}
	}
	return nil
}

// addLocatorHandlers wraps the locators and flask.
func addLocatorHandlers(handlers map[string]handler) {
	for _, n := range []string{"pyenv", "asdf", "mise"} {
		handlers[n] = locatorCmd(n, orUnknown(handlers[n]))
	}
	handlers["xcrun"] = xcrunFind(orUnknown(handlers["xcrun"]))
	handlers["xcode-select"] = xcodeSelectPrint(orUnknown(handlers["xcode-select"]))
	handlers["flask"] = flaskCmd(orUnknown(handlers["flask"]))
}

// locatorOperands: every operand is a program or version name, and there
// is at most one.
func locatorOperands(args []word) bool {
	if len(args) > 1 {
		return false
	}
	for _, w := range args {
		if !w.static || w.brace || !programWord(w.val) {
			return false
		}
	}
	return true
}

func locatorCmd(tool string, prev handler) handler {
	return func(x *cmdCtx, args []word) {
		// mise renders the project's mise.toml each time it loads it
		// ({{exec(…)}} templates, _.source scripts) and `mise trust`
		// records the file's path, not its content: with the sandbox off
		// that is the project's code on the host, so it asks (review).
		if tool == "mise" && !x.c.sandbox {
			x.add(Ask, RuleUnknownCommand, "mise renders the project's mise.toml (its exec templates and env scripts run) each time it loads it, and the sandbox is off")
			return
		}
		if len(args) >= 2 && args[1].static && contains(locatorVerbs(tool), args[1].val) && locatorOperands(args[2:]) {
			x.add(Allow, RuleReadOnly, tool+" "+args[1].val+" prints where a program or toolchain is")
			return
		}
		prev(x, args)
	}
}

func xcrunFind(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		rest := args[1:]
		if len(rest) >= 2 && (rest[0].val == "--sdk" || rest[0].val == "-sdk") && rest[1].static && programWord(rest[1].val) {
			rest = rest[2:]
		}
		if len(rest) == 2 && (rest[0].val == "--find" || rest[0].val == "-f") && rest[1].static && programWord(rest[1].val) {
			x.add(Allow, RuleReadOnly, "xcrun --find prints where "+rest[1].val+" is")
			return
		}
		prev(x, args)
	}
}

func xcodeSelectPrint(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		if len(args) == 2 && (args[1].val == "-p" || args[1].val == "--print-path" || args[1].val == "-v" || args[1].val == "--version") {
			x.add(Allow, RuleReadOnly, "xcode-select "+args[1].val+" prints the developer directory")
			return
		}
		prev(x, args)
	}
}

// flaskApp is an --app value: a module, a file of the workspace, and an
// optional factory name with an empty call.
var flaskApp = lazy[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_./-]*(:[A-Za-z_][A-Za-z0-9_]*(\(\))?)?$`)
}}

// flaskPort is a port number.
var flaskPort = lazy[*regexp.Regexp]{build: func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]{1,5}$`) }}

func flaskCmd(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		if !x.c.sandbox || !flaskEveryday(args[1:]) {
			prev(x, args)
			return
		}
		x.add(Allow, RuleSandboxCode, "flask runs the project's own application, inside the sandbox")
		x.inWorkspace()
	}
}

// flaskEveryday: [--app APP] [--debug] VERB [run's --port N, --host LOOPBACK, --reload, --debug].
func flaskEveryday(args []word) bool {
	for _, w := range args {
		if !w.static || w.brace {
			return false
		}
	}
	for len(args) > 0 && strings.HasPrefix(args[0].val, "-") {
		name, val, has := strings.Cut(args[0].val, "=")
		switch name {
		case "--debug", "--no-debug":
			args = args[1:]
			continue
		case "--app", "-A":
		default:
			return false
		}
		if !has {
			if len(args) < 2 {
				return false
			}
			val, args = args[1].val, args[1:]
		}
		if !flaskApp.get().MatchString(val) || strings.Contains(val, "..") {
			return false
		}
		args = args[1:]
	}
	// the verbs that run the application as the project does
	for _, v := range [][]string{{"routes"}, {"run"}, {"db", "upgrade"}, {"db", "current"}, {"db", "history"}, {"db", "check"}} {
		if len(args) < len(v) {
			continue
		}
		match := true
		for i := range v {
			match = match && args[i].val == v[i]
		}
		if !match {
			continue
		}
		if v[0] != "run" {
			return len(args) == len(v)
		}
		return flaskRunOptions(args[1:])
	}
	return false
}

// flaskRunOptions: a port, a loopback host and reload/debug switches.
func flaskRunOptions(args []word) bool {
	for i := 0; i < len(args); i++ {
		name, val, has := strings.Cut(args[i].val, "=")
		switch name {
		case "--reload", "--no-reload", "--debugger", "--no-debugger", "--debug", "--with-threads":
			continue
		case "--port", "-p", "--host", "-h":
		default:
			return false
		}
		if !has {
			if i+1 >= len(args) {
				return false
			}
			i++
			val = args[i].val
		}
		switch name {
		case "--port", "-p":
			if !flaskPort.get().MatchString(val) {
				return false
			}
		default:
			if val != "127.0.0.1" && val != "localhost" && val != "::1" {
				return false
			}
		}
	}
	return true
}

package steer

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// checkTools are programs whose exit status is the point of running them.
var checkTools = map[string]bool{
	"pytest": true, "py.test": true, "tox": true, "nox": true, "jest": true, "vitest": true, "mocha": true,
	"rspec": true, "phpunit": true, "ctest": true, "golangci-lint": true, "eslint": true, "tsc": true,
	"ruff": true, "mypy": true, "flake8": true, "pylint": true, "staticcheck": true, "shellcheck": true,
}

// checkSub are tools whose check is a subcommand: go test, cargo test, …
var checkSub = map[string][]string{
	"go":      {"test", "vet", "build"},
	"cargo":   {"test", "check", "clippy", "build"},
	"npm":     {"test", "t", "run"},
	"pnpm":    {"test", "run"},
	"yarn":    {"test", "run"},
	"bun":     {"test"},
	"make":    {"test", "check", "lint", "verify", "ci"},
	"mvn":     {"test", "verify"},
	"gradle":  {"test", "check"},
	"gradlew": {"test", "check"},
	"dotnet":  {"test"},
	"python":  {"-m"}, // python -m pytest / unittest
	"python3": {"-m"},
	"deno":    {"test", "lint"},
	"mix":     {"test"},
	"swift":   {"test"},
}

// IsCheck says whether argv runs a test, build, lint or type check.
func IsCheck(argv []string) bool {
	argv = unwrap(argv)
	if len(argv) == 0 {
		return false
	}
	prog := path.Base(argv[0])
	if checkTools[prog] {
		return true
	}
	if (prog == "sh" || prog == "bash") && len(argv) > 1 && !strings.HasPrefix(argv[1], "-") {
		return checkScript(argv[1])
	}
	if strings.Contains(argv[0], "/") || strings.HasSuffix(prog, ".sh") {
		return checkScript(argv[0])
	}
	subs, ok := checkSub[prog]
	if !ok || len(argv) < 2 {
		return false
	}
	for _, s := range subs {
		if argv[1] != s {
			continue
		}
		switch {
		case s == "-m":
			return len(argv) > 2 && (argv[2] == "pytest" || argv[2] == "unittest")
		case s == "run" && (prog == "npm" || prog == "pnpm" || prog == "yarn"):
			return len(argv) > 2 && (strings.Contains(argv[2], "test") || strings.Contains(argv[2], "lint") || strings.Contains(argv[2], "check"))
		}
		return true
	}
	return false
}

// checkScriptWords are words in a project script's name that say it is a
// check: test.sh, run-tests.sh, scripts/lint, ci/check.sh, verify_all.sh.
var checkScriptWords = map[string]bool{"test": true, "tests": true, "check": true, "checks": true,
	"lint": true, "verify": true, "ci": true, "typecheck": true}

// checkScript says whether a script's name makes it a test, lint or check.
func checkScript(name string) bool {
	base := strings.ToLower(path.Base(name))
	for _, w := range strings.FieldsFunc(base, func(r rune) bool { return r == '.' || r == '-' || r == '_' }) {
		if checkScriptWords[w] {
			return true
		}
	}
	return false
}

// unwrap drops wrappers that run their arguments: env, timeout, nice, time.
func unwrap(argv []string) []string {
	for len(argv) > 0 {
		switch path.Base(argv[0]) {
		case "env":
			argv = argv[1:]
			for len(argv) > 0 && (strings.Contains(argv[0], "=") || strings.HasPrefix(argv[0], "-")) {
				argv = argv[1:]
			}
		case "timeout":
			argv = argv[1:]
			for len(argv) > 0 && strings.HasPrefix(argv[0], "-") {
				argv = argv[1:]
			}
			if len(argv) > 0 {
				argv = argv[1:] // the duration
			}
		case "nice", "time", "command", "nohup", "stdbuf":
			argv = argv[1:]
			for len(argv) > 0 && strings.HasPrefix(argv[0], "-") {
				argv = argv[1:]
			}
		default:
			return argv
		}
	}
	return argv
}

// MaskedExit reports how a shell line hides a check's exit status: a check
// followed by `|| true` (or `|| :`, `|| echo …`, `|| exit 0`), a check piped
// into another command without `set -o pipefail`, or a check followed by a
// final `exit 0` / `true`. detail quotes the part that masks it.
func MaskedExit(command string) (detail string, ok bool) {
	f, err := syntax.NewParser().Parse(strings.NewReader(command), "")
	if err != nil {
		return "", false
	}
	pipefail := false
	var found string
	inspect := func(n syntax.Node) {
		syntax.Walk(n, func(n syntax.Node) bool {
			if found != "" {
				return false
			}
			switch x := n.(type) {
			case *syntax.CallExpr:
				argv := literalArgv(x)
				if len(argv) >= 3 && argv[0] == "set" && containsPipefail(argv[1:]) {
					pipefail = true
				}
				if inner, ok := shellPayload(argv); ok {
					if d, ok := MaskedExit(inner); ok {
						found = d
					}
					return false
				}
			case *syntax.BinaryCmd:
				switch x.Op {
				case syntax.OrStmt:
					if hasCheck(x.X) && succeeds(x.Y) {
						found = nodeText(command, x)
					}
				case syntax.Pipe, syntax.PipeAll:
					if !pipefail && hasCheck(x.X) {
						found = nodeText(command, x)
					}
				}
			}
			return true
		})
	}
	walkStmts := func(stmts []*syntax.Stmt) {
		for i, st := range stmts {
			inspect(st)
			if found != "" {
				return
			}
			if i > 0 && i == len(stmts)-1 && succeeds(st) {
				for _, prev := range stmts[:i] {
					if hasCheck(prev) {
						found = strings.TrimRight(nodeText(command, prev), "; ") + "; " + nodeText(command, st)
						return
					}
				}
			}
		}
	}
	walkStmts(f.Stmts)
	return found, found != ""
}

func containsPipefail(args []string) bool {
	for i, a := range args {
		if a == "pipefail" && i > 0 && args[i-1] == "-o" {
			return true
		}
	}
	return false
}

// shellPayload is the script of `sh -c SCRIPT` / `bash -c SCRIPT`.
func shellPayload(argv []string) (string, bool) {
	argv = unwrap(argv)
	if len(argv) < 3 {
		return "", false
	}
	switch path.Base(argv[0]) {
	case "sh", "bash", "zsh", "dash":
	default:
		return "", false
	}
	for i := 1; i < len(argv)-1; i++ {
		if argv[i] == "-c" || (strings.HasPrefix(argv[i], "-") && strings.HasSuffix(argv[i], "c") && !strings.HasPrefix(argv[i], "--")) {
			return argv[i+1], true
		}
	}
	return "", false
}

// hasCheck says whether any simple command in n runs a check.
func hasCheck(n syntax.Node) bool {
	found := false
	syntax.Walk(n, func(n syntax.Node) bool {
		if found {
			return false
		}
		if c, ok := n.(*syntax.CallExpr); ok {
			argv := literalArgv(c)
			if IsCheck(argv) {
				found = true
			} else if inner, ok := shellPayload(argv); ok {
				if f, err := syntax.NewParser().Parse(strings.NewReader(inner), ""); err == nil && hasCheck(f) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// succeeds says whether n is a command that always exits 0: true, :,
// echo/printf, exit 0.
func succeeds(n syntax.Node) bool {
	st, ok := n.(*syntax.Stmt)
	if ok {
		n = st.Cmd
	}
	c, ok := n.(*syntax.CallExpr)
	if !ok {
		return false
	}
	argv := literalArgv(c)
	if len(argv) == 0 {
		return false
	}
	switch argv[0] {
	case "true", ":", "echo", "printf":
		return true
	case "exit", "return":
		return len(argv) == 1 || argv[1] == "0"
	}
	return false
}

// literalArgv is a call's words as literal text ("" for a dynamic word).
func literalArgv(c *syntax.CallExpr) []string {
	out := make([]string, 0, len(c.Args))
	for _, w := range c.Args {
		out = append(out, wordText(w))
	}
	return out
}

func wordText(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			b.WriteString(x.Value)
		case *syntax.SglQuoted:
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					b.WriteString(l.Value)
				}
			}
		}
	}
	return b.String()
}

func nodeText(src string, n syntax.Node) string {
	s, e := int(n.Pos().Offset()), int(n.End().Offset())
	if s < 0 || e > len(src) || s >= e {
		return ""
	}
	return strings.TrimSpace(src[s:e])
}

// DeletedTests are the test files a shell line removes (rm, git rm, unlink).
func DeletedTests(command string) []string {
	f, err := syntax.NewParser().Parse(strings.NewReader(command), "")
	if err != nil {
		return nil
	}
	var out []string
	syntax.Walk(f, func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok {
			return true
		}
		argv := unwrap(literalArgv(c))
		if inner, ok := shellPayload(argv); ok {
			out = append(out, DeletedTests(inner)...)
			return false
		}
		var files []string
		switch {
		case len(argv) > 1 && (path.Base(argv[0]) == "rm" || path.Base(argv[0]) == "unlink"):
			files = argv[1:]
		case len(argv) > 2 && path.Base(argv[0]) == "git" && argv[1] == "rm":
			files = argv[2:]
		}
		for _, a := range files {
			if !strings.HasPrefix(a, "-") && IsTestPath(a) {
				out = append(out, a)
			}
		}
		return true
	})
	return out
}

// UpdatesExpectations says whether a check is run in a mode that rewrites
// what tests expect (golden files, snapshots).
func UpdatesExpectations(command string) (string, bool) {
	f, err := syntax.NewParser().Parse(strings.NewReader(command), "")
	if err != nil {
		return "", false
	}
	found := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok || found != "" {
			return found == ""
		}
		argv := literalArgv(c)
		if !IsCheck(argv) {
			return true
		}
		for _, a := range argv[1:] {
			switch a {
			case "-update", "--update", "-u", "--update-snapshots", "--updateSnapshot", "--snapshot-update", "-update-golden":
				found = nodeText(command, c)
			}
		}
		return true
	})
	return found, found != ""
}

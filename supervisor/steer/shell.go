package steer

import (
	"path"
	"strings"

	"github.com/sentinelhq/sentinel/policy"
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

// IsCheck says whether argv runs a test, build, lint or type check, behind
// the wrappers the policy follows (policy.Unwrap: env, timeout, nice, …).
func IsCheck(argv []string) bool {
	argv = policy.Unwrap(argv)
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

// MaskedExit reports how a shell line hides a check's exit status: a check
// followed by `|| true` (or `|| :`, `|| echo …`, `|| exit 0`), a check piped
// into another command without `set -o pipefail`, or a check followed by a
// final `exit 0` / `true`. detail quotes the part that masks it. The line is
// read by the policy's reader (policy.ReadShell), into the scripts of
// sh -c and here-documents the policy itself reads.
func MaskedExit(command string) (detail string, ok bool) {
	l, err := policy.ReadShell(command)
	if err != nil {
		return "", false
	}
	pipefail := false
	var found string
	inspect := func(st *policy.Stmt) {
		st.Walk(func(n *policy.Stmt) bool {
			if found != "" {
				return false
			}
			if c := n.Cmd; c != nil {
				if len(c.Args) >= 3 && c.Args[0] == "set" && containsPipefail(c.Args[1:]) {
					pipefail = true
				}
				if inner, ok := c.Script(); ok {
					if d, ok := MaskedExit(inner); ok {
						found = d
					}
					return false
				}
			}
			switch n.Op {
			case "||":
				if hasCheck(n.X) && succeeds(n.Y) {
					found = n.Text
				}
			case "|", "|&":
				if !pipefail && hasCheck(n.X) {
					found = n.Text
				}
			}
			return true
		})
	}
	stmts := l.Stmts
	for i, st := range stmts {
		inspect(st)
		if found != "" {
			break
		}
		if i > 0 && i == len(stmts)-1 && succeeds(st) {
			for _, prev := range stmts[:i] {
				if hasCheck(prev) {
					found = strings.TrimRight(prev.Text, "; ") + "; " + st.Text
					break
				}
			}
		}
	}
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

// hasCheck says whether any simple command in st, or in a script it runs
// through a shell, runs a check.
func hasCheck(st *policy.Stmt) bool {
	found := false
	st.Walk(func(n *policy.Stmt) bool {
		if found || n.Cmd == nil {
			return !found
		}
		if IsCheck(n.Cmd.Args) {
			found = true
		} else if inner, ok := n.Cmd.Script(); ok {
			if l, err := policy.ReadShell(inner); err == nil {
				for _, s := range l.Stmts {
					found = found || hasCheck(s)
				}
			}
		}
		return !found
	})
	return found
}

// succeeds says whether st is a command that always exits 0: true, :,
// echo/printf, exit 0.
func succeeds(st *policy.Stmt) bool {
	if st == nil || st.Cmd == nil || len(st.Cmd.Args) == 0 {
		return false
	}
	argv := st.Cmd.Args
	switch argv[0] {
	case "true", ":", "echo", "printf":
		return true
	case "exit", "return":
		return len(argv) == 1 || argv[1] == "0"
	}
	return false
}

// DeletedTests are the test files a shell line removes (rm, git rm, unlink),
// behind the wrappers and in the scripts the policy reads.
func DeletedTests(command string) []string {
	l, err := policy.ReadShell(command)
	if err != nil {
		return nil
	}
	var out []string
	l.Walk(func(n *policy.Stmt) bool {
		if n.Cmd == nil {
			return true
		}
		if inner, ok := n.Cmd.Script(); ok {
			out = append(out, DeletedTests(inner)...)
			return false
		}
		argv := n.Cmd.Program()
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
// what tests expect (golden files, snapshots), also in a script the policy
// reads.
func UpdatesExpectations(command string) (string, bool) {
	l, err := policy.ReadShell(command)
	if err != nil {
		return "", false
	}
	found := ""
	l.Walk(func(n *policy.Stmt) bool {
		if found != "" || n.Cmd == nil {
			return found == ""
		}
		if inner, ok := n.Cmd.Script(); ok {
			found, _ = UpdatesExpectations(inner)
			return false
		}
		argv := n.Cmd.Args
		if !IsCheck(argv) {
			return true
		}
		for _, a := range argv[1:] {
			switch a {
			case "-update", "--update", "-u", "--update-snapshots", "--updateSnapshot", "--snapshot-update", "-update-golden":
				found = n.Cmd.Text
			}
		}
		return true
	})
	return found, found != ""
}

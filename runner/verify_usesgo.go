package runner

import (
	"os"
	"path/filepath"
	"strings"
)

// usesGo says whether a verification may build Go, so it warms and waits
// for the Go build cache seed: a check names go or make anywhere, or the
// clean copy has a go.mod and a check runs a program that may run go. Only
// then is the seed worth having or waiting for (--verify true, test -f x or
// a grep build nothing).
func usesGo(dir string, checks []Check) bool {
	_, err := os.Stat(filepath.Join(dir, "go.mod"))
	goMod := err == nil
	for _, c := range checks {
		if checkMayRunGo(c.Command, goMod) {
			return true
		}
	}
	return false
}

// checksToRun are the checks a verification of dir runs, and the ones it
// skips with why (nothingToCheck).
func checksToRun(dir string, checks []Check) (run []Check, skipped []CheckResult) {
	for _, c := range checks {
		if why := nothingToCheck(dir, c); why != "" {
			skipped = append(skipped, CheckResult{Check: c, Skipped: why})
		} else {
			run = append(run, c)
		}
	}
	return run, skipped
}

// seedWanted is the verification's question asked of dir before the run:
// would a check it runs (not one skipped for want of input: a module with
// no Go package yet) start go. A warm-up builds the seed only then.
func seedWanted(dir string, checks []Check) bool {
	run, _ := checksToRun(dir, checks)
	return usesGo(dir, run)
}

// checkMayRunGo says whether the shell command check may run go. It is
// conservative: any program in a command's place that is not known to run
// no other program (goFreeProgram) may, and so may anything the split below
// does not understand (a quoted separator only adds programs to look at).
func checkMayRunGo(check string, goMod bool) bool {
	for _, w := range strings.FieldsFunc(check, func(r rune) bool { return strings.ContainsRune(" \t\n;&|()`$", r) }) {
		if w == "go" || strings.HasSuffix(w, "/go") || w == "make" {
			return true
		}
	}
	if !goMod {
		return false
	}
	// Each piece between the shell's separators (and inside $(…) and
	// `…`) is a command: its program is its first word after variable
	// assignments and the keywords that leave a command after them.
	// 2>&1 is a redirection, not a separator.
	check = strings.NewReplacer(">&", ">", "<&", "<").Replace(check)
	for _, seg := range strings.FieldsFunc(check, func(r rune) bool { return strings.ContainsRune(";&|()`\n", r) }) {
		for _, w := range strings.Fields(seg) {
			if commandPrefix[w] || isAssignment(w) || isRedirection(w) {
				continue
			}
			if w == "for" {
				break // for NAME in WORDS: no program until the next separator
			}
			if !goFreeProgram[w] {
				return true
			}
			break
		}
	}
	return false
}

// commandPrefix are the shell's words after which a command still follows.
var commandPrefix = map[string]bool{"!": true, "{": true, "}": true, "if": true, "then": true, "else": true,
	"elif": true, "while": true, "until": true, "do": true, "done": true, "fi": true}

// goFreeProgram are programs (by bare name, found on PATH: ./grep is the
// project's own and may run anything) and shell built-ins that run no
// other program. Not here, as they can: sed (its e command), awk (system),
// find (-exec), sort (--compress-program), xargs, env, sh, time, case.
var goFreeProgram = map[string]bool{"true": true, "false": true, ":": true, "exit": true, "echo": true,
	"printf": true, "test": true, "[": true, "[[": true, "grep": true, "egrep": true, "fgrep": true,
	"cat": true, "ls": true, "wc": true, "head": true, "tail": true, "cmp": true, "diff": true,
	"cut": true, "tr": true, "stat": true, "pwd": true, "basename": true, "dirname": true,
	"set": true, "shift": true, "return": true, "break": true, "continue": true}

// isAssignment says whether w is a NAME=value prefix of a command.
func isAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	if !ok || name == "" {
		return false
	}
	for i, r := range name {
		if r != '_' && !(r >= 'a' && r <= 'z') && !(r >= 'A' && r <= 'Z') && !(i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// isRedirection says whether w is a redirection such as >out or 2>/dev/null.
func isRedirection(w string) bool {
	w = strings.TrimLeft(w, "0123456789")
	return strings.HasPrefix(w, ">") || strings.HasPrefix(w, "<")
}

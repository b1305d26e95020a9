package policy

import (
	"slices"
	"strings"
)

// go vet -vettool=$(which NAME) (issue 32, polcorp7: `go vet
// -vettool=$(which shadow) ./...`). The substitution names a program
// found on PATH: the person's installed analyzer (shadow, nilness,
// fieldalignment from golang.org/x/tools), not a file of the workspace. go
// vet runs it with -V=full, -flags and then one generated .cfg file per
// package. Inside the sandbox, not in place, that is an installed program
// run on the project, contained as the project's own tests are: allowed,
// unless NAME is a shell or an interpreter (which would run the .cfg file
// as a script) or a wrapper. With the sandbox off or in place it asks
// (instead of the deny a -vettool naming any other program gets): the
// program is the person's own, but nothing contains it. Any other
// spelling (a path, a variable, another substitution) is denied as before.
// A bare NAME written as such is the same program go looks up.

// vettoolName returns the program a -vettool value names when it is a
// bare program name: $(which NAME) and $(command -v NAME) are read as the
// program of that name (bindstmts.go), so the value arrives as NAME.
func vettoolName(val string, static bool) (string, bool) {
	if !static || val == "" {
		return "", false
	}
	if d, base, ok := strings.Cut(val, "/usr/bin/"); ok && d == "" {
		val = base // $(which NAME), read as the program's path (subst.go)
	}
	for _, r := range val {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return "", false // a path (./evil, /usr/bin/x), a variable
		}
	}
	if val == "." || val == ".." || slices.Contains(shellNames, val) || isCodeRunner(val) || isWrapperName(val) {
		return "", false
	}
	return val, true
}

// isWrapperName: programs that run their arguments as a command.
func isWrapperName(n string) bool {
	switch n {
	case "env", "xargs", "nohup", "nice", "timeout", "time", "sudo", "doas", "su", "exec", "command", "eval", "busybox",
		"strace", "ltrace", "stdbuf", "setsid", "chroot", "unshare", "nsenter", "watch", "flock", "ionice", "taskset", "script":
		return true
	}
	return false
}

// vettool judges go's -vettool=VAL: true when it was judged here.
func (x *cmdCtx) vettool(val string, static bool) bool {
	name, ok := vettoolName(val, static)
	if !static {
		name, ok = x.vettoolFromPath()
	}
	if !ok {
		return false
	}
	if !x.c.sandbox || x.c.inPlace {
		x.add(Ask, RuleBuildExec, "go vet -vettool runs "+quoteShort(name)+" from PATH on the project, and nothing contains it here")
		return true
	}
	x.add(Allow, RuleSandboxCode, "go vet -vettool runs "+quoteShort(name)+", an installed analyzer from PATH, on the project inside the sandbox")
	return true
}

// vettoolStatic: the -vettool value goFlags read is static (the option's
// own word when written -vettool=VAL, else the word after it, at i now).
func vettoolStatic(sargs []word, i int, joined bool) bool {
	if i < 0 || i >= len(sargs) {
		return false
	}
	if joined {
		return sargs[i].static
	}
	return sargs[i].static && i > 0 && sargs[i-1].static
}

// vettoolFromPath reads the part's text for -vettool=$(which NAME) or
// $(command -v NAME), written once: the reading of the line before the
// substitution is bound to the program's name.
func (x *cmdCtx) vettoolFromPath() (string, bool) {
	if x.part == nil || strings.Count(x.part.Text, "vettool") != 1 {
		return "", false
	}
	_, after, ok := strings.Cut(x.part.Text, "-vettool=")
	if !ok {
		return "", false
	}
	for _, form := range [][2]string{{"$(which ", ")"}, {"$(command -v ", ")"}} {
		rest, ok := strings.CutPrefix(after, form[0])
		if !ok {
			continue
		}
		name, tail, ok := strings.Cut(rest, form[1])
		if !ok || tail != "" && !strings.ContainsRune(" \t", rune(tail[0])) {
			return "", false // $(which x)y: not one program's path
		}
		return vettoolName(name, true)
	}
	return "", false
}

// programWord: a plain program name (no path, option or expansion).
func programWord(v string) bool {
	if v == "" || strings.HasPrefix(v, "-") || strings.HasPrefix(v, ".") {
		return false
	}
	for _, r := range v {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' || r == '+') {
			return false
		}
	}
	return true
}

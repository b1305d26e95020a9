package policy

import (
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Environment reads in inline code. `julia -e 'println(ENV)'`,
// `Rscript -e 'Sys.getenv()'`, `python3 -c 'print(os.environ)'`, `node -e
// 'console.log(process.env)'`, `ruby -e 'p ENV.to_h'`, `perl -e 'print
// %ENV'` list the environment as `env` does: the snippet asks (in both
// modes), and the line that sends its output to a file or a sink is
// denied (dumpenv.go), as `env > out.txt` is.

// codeReadsEnv: the snippet reads the process environment.
func codeReadsEnv(code string) bool {
	low := strings.ToLower(code)
	for _, t := range []string{"getenv", "environ", "process.env", "deno.env", "bun.env", "%env", "$env{", "env::var", "env::vars"} {
		if strings.Contains(low, t) {
			return true
		}
	}
	return containsWord(code, "ENV")
}

// inlineEnvHeads are the interpreters whose inline snippet may read it.
var inlineEnvHeads = wordSet{words: []string{"julia", "R", "Rscript", "python", "python3", "python2", "node", "nodejs", "ruby",
	"perl", "deno", "bun", "php", "pypy", "pypy3", "lua", "tclsh"}}

// inlineEnvHead: the program is an interpreter of inlineEnvHeads
// (python3.12 counts as python3).
func inlineEnvHead(prog string) bool {
	base := filepath.Base(prog)
	if i := strings.IndexAny(base, "0123456789"); i > 0 && strings.HasPrefix(base, "python") {
		base = "python3"
	}
	return inlineEnvHeads.has(base)
}

// inlineEnvDump reports an interpreter given inline code (-e, -c, -E,
// --eval, -r) that reads the environment.
func inlineEnvDump(argv []string) (string, bool) {
	if len(argv) == 0 || !inlineEnvHead(argv[0]) {
		return "", false
	}
	for i, a := range argv[1:] {
		code := ""
		switch {
		case a == "-e" || a == "-c" || a == "-E" || a == "--eval" || a == "-r" || a == "-p" || a == "--print" || a == "--expr":
			if i+2 < len(argv) {
				code = argv[i+2]
			}
		case strings.HasPrefix(a, "--eval=") || strings.HasPrefix(a, "--expr="):
			_, code, _ = strings.Cut(a, "=")
		case len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[len(a)-1:], "ceE"):
			if i+2 < len(argv) {
				code = argv[i+2] // perl -ne, ruby -le
			}
		}
		if code != "" && codeReadsEnv(code) {
			return filepath.Base(argv[0]) + " code reading the environment", true
		}
	}
	return "", false
}

// inlineDumpOnly: the call is an interpreter whose own snippet reads the
// environment, with no command substitution in its words: it is the dump,
// not a sink handed one (its output is judged where it goes).
func (c *checkEnv) inlineDumpOnly(call *syntax.CallExpr) bool {
	argv := c.staticArgv(call)
	if _, ok := inlineEnvDump(argv); !ok {
		return false
	}
	subst := false
	for _, a := range call.Args {
		syntax.Walk(a, func(n syntax.Node) bool {
			if _, ok := n.(*syntax.CmdSubst); ok {
				subst = true
			}
			return !subst
		})
	}
	return !subst
}

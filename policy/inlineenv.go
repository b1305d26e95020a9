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

// inlineEnvHead: the program is an interpreter that takes inline code
// (inlineSpecs; python3.12 counts as python).
func inlineEnvHead(prog string) bool {
	_, ok := inlineSpecs.get()[interpBase(prog)]
	return ok
}

// inlineEnvDump reports an interpreter given inline code, however its
// options spell it (inlineCodeOf), that reads the environment.
func inlineEnvDump(argv []string) (string, bool) {
	if len(argv) == 0 || !inlineEnvHead(argv[0]) {
		return "", false
	}
	args := make([]word, 0, len(argv)-1)
	for _, a := range argv[1:] {
		args = append(args, word{val: a, static: true})
	}
	if inlineDumpHook != nil {
		inlineDumpHook()
	}
	if in := inlineCodeOf(interpBase(argv[0]), args); in.found && codeReadsEnv(in.code) {
		return filepath.Base(argv[0]) + inlineDumpSuffix, true
	}
	return "", false
}

// inlineDumpSuffix ends what inlineEnvDump names.
const inlineDumpSuffix = " code reading the environment"

// inlineDumpHook, when set (by a test), sees every reading of inline code
// for the environment: the line is read once per Check.
var inlineDumpHook func()

// inlineDumpOnly: the call is an interpreter whose own snippet reads the
// environment, with no command substitution in its words: it is the dump,
// not a sink handed one (its output is judged where it goes).
func (c *checkEnv) inlineDumpOnly(call *syntax.CallExpr) bool {
	if !c.dumpOf(call).inline {
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

// codeWriteTokens are the plain ways a snippet writes a file.
var codeWriteTokens = []string{"file.write", "writefile", "write_text", "write_bytes", "fs.write", "appendfile",
	"createwritestream", "writelines", "saverds", "file=", "file.open", "io.open", "fopen(", "file_put_contents",
	"spit ", "filesystem.write"}

// codeWritesFile: the snippet writes a file it names (File.write,
// open(path, "w"), fs.writeFileSync, Perl's open(F, ">path"), R's
// writeLines(…, file=…)).
func codeWritesFile(code string) bool {
	low := strings.ToLower(code)
	for _, t := range codeWriteTokens {
		if strings.Contains(low, t) {
			return true
		}
	}
	if strings.Contains(low, "open(") && !benignUse(low, "open(") {
		return true
	}
	for _, lit := range allLiterals(code) {
		if strings.HasPrefix(lit, ">") || strings.HasPrefix(lit, "+>") {
			return true
		}
	}
	return false
}

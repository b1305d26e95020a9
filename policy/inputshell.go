package policy

import "strings"

// A shell fed its program from input: `… | xargs -I{} sh -c {}`,
// `… | xargs sh -c`, `parallel sh -c ::: 'rm -rf ~'`, `… | parallel`. When
// the whole program a shell runs is text read at run time, the line is
// judged as `… | sh` is: code nobody has seen (shell.interpreter-stdin,
// denied); read from a named file (xargs -a F, parallel :::: F), it is
// judged as `sh F` is, since the file is the script. Text pasted INTO a
// program (`sh -c 'echo {}'`) is a dynamic argument and asks. Static input
// (parallel's ::: arguments) is not unseen: each command it makes is
// judged as written.

// inputMarker stands for one item of input in a command template.
const inputMarker = "\x00input\x00"

// fillInput gives the command a template runs for one item: each
// occurrence of repl replaced by item, or item appended as the last word
// when no word holds repl and the runner appends (xargs and parallel do).
func fillInput(tmpl []word, repl, item string, appends bool) []word {
	out := make([]word, 0, len(tmpl)+1)
	used := false
	for _, w := range tmpl {
		if repl != "" && strings.Contains(w.val, repl) {
			w.val = strings.ReplaceAll(w.val, repl, item)
			used = true
		}
		out = append(out, w)
	}
	if !used && appends {
		out = append(out, word{val: item, static: true})
	}
	return out
}

// inputIsShellCode reports whether the command a template runs is a shell
// whose whole -c program is one item of input.
func inputIsShellCode(tmpl []word, repl string, appends bool) bool {
	argv := fillInput(tmpl, repl, inputMarker, appends)
	if len(argv) == 0 {
		return false
	}
	name := programBase(argv[0].val)
	if !IsShell(name) {
		return false
	}
	r := readShell(name, argv[1:])
	return r.payload != nil && strings.TrimSpace(r.payload.val) == inputMarker
}

// inputShell judges a runner whose template runs input as shell code.
// file is the input file (xargs -a, parallel -a or ::::), or nil for the
// runner's standard input. It reports whether it judged the line.
func (x *cmdCtx) inputShell(runner string, tmpl []word, repl string, appends bool, file *word) bool {
	if !inputIsShellCode(tmpl, repl, appends) {
		return false
	}
	if file != nil && !x.c.sandbox {
		// A data file's lines run as shell are no project script
		// (offcode.go): with the sandbox off a person reads them first.
		x.add(Ask, RuleShellScript, runner+" runs the lines of "+quoteShort(file.val)+" as shell code, and the sandbox is off")
		return true
	}
	if file != nil {
		x.runFile(*file, runner+" runs the lines of "+quoteShort(file.val)+" as shell code", RuleShellScript,
			runner+" runs the lines of "+quoteShort(file.val)+" as shell code, and the sandbox is off")
		return true
	}
	x.add(Deny, RuleShellStdin, runner+" runs each line it reads as shell code, which nobody has seen")
	return true
}

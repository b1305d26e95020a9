package policy

import (
	"path/filepath"
	"strings"
)

// Build tools' verbs that start any program on PATH (polcorp14, issue 32):
// `composer exec BINARY ARGS` runs BINARY with the project's vendor/bin
// put first on PATH, so `composer exec sh -c 'rm -rf ~'` runs sh, not a
// package; `mix cmd COMMAND` runs COMMAND in each application of the
// project. Both were allowed as "the project's own code" in both sandbox
// modes. The command they start is judged as if written directly: a deny
// denies the line, and an ask by a program the policy knows (sh -c of an
// unknown line, curl, an interpreter's inline code) asks. A program the
// policy does not know is most often one of vendor/bin's (phpunit's
// siblings), the project's dependencies, and stays the verb's own
// judgement.

// pathExecVerb: tool's verb that starts a program and that verb's options
// taking the next word as their value (ok false for other tools).
func pathExecVerb(tool string) (verb string, valued []string, ok bool) {
	switch tool {
	case "composer":
		return "exec", []string{"-d", "--working-dir"}, true
	case "mix":
		return "cmd", []string{"--app", "--cd"}, true
	}
	return "", nil, false
}

// pathExecInner returns the command a composer exec / mix cmd line starts.
func pathExecInner(args []word) []word {
	if len(args) < 3 {
		return nil
	}
	verb, valued, ok := pathExecVerb(filepath.Base(args[0].val))
	if !ok {
		return nil
	}
	seenVerb := false
	for i := 1; i < len(args); i++ {
		v := args[i].val
		switch {
		case !args[i].static:
			return nil
		case v == "--":
			if !seenVerb {
				return nil
			}
			return args[i+1:]
		case strings.HasPrefix(v, "-") && len(v) > 1:
			if name, _, eq := strings.Cut(v, "="); !eq && contains(valued, name) {
				i++
			}
		case !seenVerb:
			if v != verb {
				return nil
			}
			seenVerb = true
		default:
			return args[i:]
		}
	}
	return nil
}

// shellTextChars are the characters that make a word read differently as
// shell text than as one word.
const shellTextChars = " \t\n;&|<>()$`\\\"'~*?[]{}#"

// pathExecShellLine is the shell line tool runs for inner: composer's
// binary word as shell text with the other words escaped, mix's words
// joined as they are.
func pathExecShellLine(tool string, inner []word) string {
	vals := make([]string, len(inner))
	for i, w := range inner {
		vals[i] = w.val
		if tool == "composer" && i > 0 {
			vals[i] = shellQuote(w.val) // parallel.go
		}
	}
	return strings.Join(vals, " ")
}

// judgePathExec judges the command a composer exec / mix cmd line starts.
func (x *cmdCtx) judgePathExec(args []word) {
	inner := pathExecInner(args)
	if len(inner) == 0 {
		return
	}
	// composer runs its binary argument as a shell line (ExecCommand.php
	// escapes only the words after it), and mix cmd before Elixir 1.19
	// joins its words and runs them through the shell: a word shell text
	// reads differently (`composer exec "rm -rf ~"`, `mix cmd true ';' rm
	// -rf '~'`) is judged as the shell line the words make (review).
	tool := filepath.Base(args[0].val)
	for _, w := range inner {
		if w.static && strings.ContainsAny(w.val, shellTextChars) {
			verb, _, _ := pathExecVerb(tool)
			x.runLine(word{val: pathExecShellLine(tool, inner), static: true}, tool+" "+verb)
			break // and judged as words too below: the stricter answer stands
		}
	}
	part := Part{}
	if x.part != nil {
		part = *x.part
		part.Wrappers = nil
	}
	sub := &cmdCtx{c: x.c, s: x.s, cw: x.cw, part: &part, stdin: x.stdin}
	sub.command(inner, 1)
	if !sub.set {
		return
	}
	verb, _, _ := pathExecVerb(filepath.Base(args[0].val))
	via := " (run through " + filepath.Base(args[0].val) + " " + verb + ")"
	switch {
	case sub.f.d == Deny:
		x.add(Deny, sub.f.rule, sub.f.reason+via)
	case sub.f.d == Ask && sub.f.rule != RuleUnknownCommand:
		x.add(Ask, sub.f.rule, sub.f.reason+via)
	}
}

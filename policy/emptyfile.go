package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A redirect that empties a file. `> f`, `: > f`, `true > f`, `cat
// /dev/null > f`, `echo -n > f` and `printf '' > f` truncate f and write
// nothing into it: on a file of the tree that throws its contents away as
// truncate -s 0 does (truncate.go). In place, where no checkpoint covers the
// person's uncommitted work, it asks as truncate does (inplace.uncommitted,
// which does not look whether the file exists either); in a disposable copy
// it stays a workspace write. The same holds for the writers that copy
// nothing into a file: cp or install of /dev/null onto it, dd of= with
// if=/dev/null or count=0 (without conv=notrunc), tee with its input from
// /dev/null. A redirect on a command that writes output, or a copy of a
// file, replaces the file with that output, as an editor's write does:
// that stays a write.

// truncatingRedirect reports whether op opens its file truncated (>, >|,
// &>), not appended (>>) or read.
func truncatingRedirect(op syntax.RedirOperator) bool {
	return op == syntax.RdrOut || op == syntax.ClbOut || op == syntax.RdrAll
}

// writesNothing reports whether a decoded argv, wrappers not stripped,
// writes nothing to its output: the null builtins, cat of /dev/null alone,
// echo -n alone and printf of an empty format.
func writesNothing(words []word) bool {
	if len(words) == 0 {
		return true
	}
	for _, w := range words {
		if !w.static {
			return false
		}
	}
	prog, args := words[0].val, words[1:]
	switch prog {
	case ":", "true", "false":
		return true
	case "cat":
		return len(args) == 1 && args[0].val == "/dev/null"
	case "echo":
		return len(args) == 1 && args[0].val == "-n"
	case "printf":
		return len(args) == 1 && (args[0].val == "" || args[0].val == "%s")
	}
	return false
}

// emptiesTreeFiles judges, in place, the truncating redirects of a command
// that writes nothing: each one on a path of the tree discards that file's
// contents.
func (x *cmdCtx) emptiesTreeFiles(words []word, redirs []redirTarget) {
	if !x.c.inPlace || x.c.checkpointed || !writesNothing(words) {
		return
	}
	var targets []word
	for _, r := range redirs {
		if r.trunc && !r.fd {
			targets = append(targets, r.w)
		}
	}
	x.empties("the redirect empties", targets)
}

// empties judges, in place, a command that leaves each of targets empty:
// one in the tree discards that file's contents.
func (x *cmdCtx) empties(what string, targets []word) {
	if !x.c.inPlace || x.c.checkpointed {
		return
	}
	for _, w := range targets {
		if devStream(w.val) {
			continue
		}
		for _, p := range x.resolve(w) {
			if within(p, x.c.ws) {
				x.discardsWork(what+" a file of the tree", RuleDestructive, true)
				return
			}
		}
	}
}

// copyEmpties judges cp/install of /dev/null alone onto a file (ops are
// its operands).
func (x *cmdCtx) copyEmpties(ops []word) {
	if len(ops) == 2 && ops[0].val == "/dev/null" {
		x.empties(ops[0].val+" copied over empties", ops[1:])
	}
}

// ddEmpties judges dd's of= when nothing is copied into it: if=/dev/null
// or count=0, and the file is truncated (no conv=notrunc).
func (x *cmdCtx) ddEmpties(args []word) {
	var of []word
	nothing, notrunc := false, false
	for _, w := range args[1:] {
		k, v, _ := strings.Cut(w.val, "=")
		switch {
		case k == "of":
			of = append(of, word{val: v, static: w.static})
		case k == "if" && v == "/dev/null", k == "count" && v == "0":
			nothing = true
		case k == "conv" && strings.Contains(v, "notrunc"):
			notrunc = true
		}
	}
	if nothing && !notrunc {
		x.empties("dd copies nothing into", of)
	}
}

// teeEmpties judges tee reading /dev/null: it truncates each file it
// names (without -a) and writes nothing into it.
func (x *cmdCtx) teeEmpties(args []word) {
	if !x.stdinNull || hasOpt(args[1:], "a", "--append") {
		return
	}
	x.empties("tee of /dev/null empties", operands(args[1:], "", []string{"output-error"}))
}

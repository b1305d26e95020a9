package policy

import "mvdan.cc/sh/v3/syntax"

// A redirect that empties a file. `> f`, `: > f`, `true > f`, `cat
// /dev/null > f`, `echo -n > f` and `printf '' > f` truncate f and write
// nothing into it: on a file of the tree that throws its contents away as
// truncate -s 0 does (truncate.go). In place, where no checkpoint covers the
// person's uncommitted work, it asks as truncate does (inplace.uncommitted,
// which does not look whether the file exists either); in a disposable copy
// it stays a workspace write. A redirect on a command that writes output
// replaces the file with that output, as an editor's write does: that stays
// a write.

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
	for _, r := range redirs {
		if !r.trunc || r.fd || devStream(r.w.val) {
			continue
		}
		for _, p := range x.resolve(r.w) {
			if within(p, x.c.ws) {
				x.discardsWork("the redirect empties a file of the tree", RuleDestructive, true)
				return
			}
		}
	}
}

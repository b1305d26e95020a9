package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Git in a directory that does not exist, with the sandbox off (off30).
// gitMadeRepo asks when git would run in a workspace directory that does
// not exist yet, because a command earlier on the line may make it a
// repository of the coder's own (`git init --bare evil && git -C evil log
// -p`, `tar xf r.tar && cd evil && git show`, a checkout of a branch that
// tracks HEAD, refs/ and config). Agents run git in a subproject every
// day (`cd services/api && git status`, `git -C packages/core log -5`,
// `(cd frontend && git diff --cached)`); in a real checkout that directory
// exists and is judged by what it holds. When it does not, and no command
// anywhere on the line can make a directory, the cd or -C fails and git
// does not run there at all, so there is nothing to ask about.
//
// lineMakesNoDirs is that test, on the whole line as bash reads it (every
// simple command, in loops, functions, substitutions and bash -c texts
// included): each command is a cd, a printer or filter of text, or git with
// a sub-command that writes no working-tree files (status, log, diff, show,
// blame, ls-files, rev-parse, add, commit, grep, checkout -b NAME,
// switch -c NAME …). Anything else — mkdir, tar, cp, make, a project
// script, git checkout/reset/pull/clone/init, a command word that is not a
// plain literal — may make the directory, and the ask stands. What runs
// between the check and the run beyond this line (a background job) can
// plant a repository in an existing directory just as well: this adds no
// race the existing-directory check does not have.

// noDirCommands write no file or directory (their redirections cannot make
// a directory either).
var noDirCommands = wordSet{words: []string{"cd", "pushd", "popd", "echo", "printf", "true", "false", ":", "tail",
	"head", "grep", "egrep", "fgrep", "wc", "sort", "uniq", "cut", "tr", "test", "[", "cat", "nl", "column"}}

// noDirGitSubs are git sub-commands that write no working-tree file.
// branch is left out: `git -C sub branch -D x` is a deletion polcorp9
// labels sandbox-only, and it keeps asking off where sub is missing.
var noDirGitSubs = wordSet{words: []string{"status", "log", "diff", "show", "blame", "ls-files", "rev-parse", "add",
	"commit", "grep", "describe", "shortlog", "rev-list", "cat-file", "ls-tree", "whatchanged"}}

// lineMakesNoDirs reports whether no command of line can make a directory
// (see above).
func lineMakesNoDirs(line string, depth int) bool {
	if depth > 3 {
		return false
	}
	p := parserPool.Get().(*syntax.Parser)
	f, err := p.Parse(strings.NewReader(line), "")
	parserPool.Put(p)
	if err != nil {
		return false
	}
	ok := true
	syntax.Walk(f, func(n syntax.Node) bool {
		if !ok {
			return false
		}
		if call, is := n.(*syntax.CallExpr); is && len(call.Args) > 0 && !callMakesNoDirs(call.Args, depth) {
			ok = false
		}
		return ok
	})
	return ok
}

// callMakesNoDirs judges one simple command's words for lineMakesNoDirs.
func callMakesNoDirs(args []*syntax.Word, depth int) bool {
	w := make([]string, len(args))
	lit := make([]bool, len(args))
	for i, a := range args {
		w[i], lit[i] = plainWordValue(a)
	}
	for len(w) > 0 {
		n := 0
		switch {
		case w[0] == "timeout" && len(w) > 1:
			n = 2
		case w[0] == "nice" && len(w) > 2 && w[1] == "-n":
			n = 3
		case w[0] == "command" || w[0] == "nice":
			n = 1
		}
		if n == 0 {
			break
		}
		w, lit = w[n:], lit[n:]
	}
	if len(w) == 0 {
		return true
	}
	if !lit[0] {
		return false // the command word is not in sight
	}
	switch w[0] {
	case "git":
		return gitMakesNoDirs(w[1:])
	case "bash", "sh":
		if len(w) == 3 && lit[2] && (w[1] == "-c" || w[1] == "-lc" || w[1] == "-ec") {
			return lineMakesNoDirs(w[2], depth+1)
		}
		return false
	}
	return noDirCommands.has(w[0])
}

// gitMakesNoDirs: git's global options -C, -c, --no-pager and -P, then a
// sub-command of noDirGitSubs, checkout -b NAME or switch -c NAME.
func gitMakesNoDirs(w []string) bool {
	for len(w) > 0 {
		switch w[0] {
		case "-C", "-c":
			if len(w) < 2 {
				return false
			}
			w = w[2:]
			continue
		case "--no-pager", "-P", "--no-optional-locks":
			w = w[1:]
			continue
		}
		break
	}
	if len(w) == 0 {
		return true
	}
	switch w[0] {
	case "checkout":
		return len(w) == 3 && (w[1] == "-b" || w[1] == "-B")
	case "switch":
		return len(w) == 3 && (w[1] == "-c" || w[1] == "-C")
	}
	return noDirGitSubs.has(w[0])
}

// plainWordValue is a word's value when it is made of literal text and
// quotes only (no expansion); ok is false otherwise, with the literal
// parts kept for the caller to ignore.
func plainWordValue(w *syntax.Word) (string, bool) {
	var b strings.Builder
	ok := true
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if l, is := q.(*syntax.Lit); is {
					b.WriteString(l.Value)
				} else {
					ok = false
				}
			}
		default:
			ok = false
		}
	}
	return b.String(), ok
}

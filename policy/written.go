package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Written says whether a Part's text is exactly its argv as written, as
// the engine saw while reading the line, so that a reader comparing
// written words (a remembered template) need not read the text again.
type Written byte

// Values of Written. The zero value is for parts the engine did not read
// (built by hand or decoded from JSON): a reader must read Text itself.
const (
	WrittenUnknown Written = iota
	WrittenAsArgv          // Text is one simple command of plain words, equal to Argv
	WrittenOther           // anything else: an assignment, a wrapper, an expansion, an escape
)

// asWritten judges a simple command the engine read: its words are plain
// (wordShape: no expansion, glob, ~ or escape), it has no assignment
// prefix, noWrapper (no wrapper the engine looked through), its text
// starts with its first word, it reads no here-document whose body lies
// past the statement's text, and no redirection holds a command of its own.
func asWritten(st *syntax.Stmt, call *syntax.CallExpr, noWrapper bool) Written {
	if !noWrapper || len(call.Assigns) > 0 || len(call.Args) == 0 {
		return WrittenOther
	}
	if !st.Negated && st.Pos() != call.Args[0].Pos() {
		return WrittenOther // the statement's text starts elsewhere (coproc NAME)
	}
	for _, w := range call.Args {
		if dynamic, escaped := wordShape(w, decodeWord(w, "")); dynamic || escaped {
			return WrittenOther
		}
	}
	for _, r := range st.Redirs {
		if r.Hdoc != nil && r.Hdoc.End().Offset() > st.End().Offset() || holdsCommand(r) {
			// A here-document's body is not in the part's text.
			return WrittenOther
		}
	}
	return WrittenAsArgv
}

// holdsCommand reports whether a node holds a substitution, which reads
// as a command of its own.
func holdsCommand(n syntax.Node) bool {
	found := false
	syntax.Walk(n, func(m syntax.Node) bool {
		switch m.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			found = true
		}
		return !found
	})
	return found
}

// bareWritten judges a command the engine built from another command's
// arguments (find -exec, bundle exec): its text is the words joined by
// spaces, which reads back as the same words only when each is bare.
func bareWritten(argv []word, noWrapper bool) Written {
	if !noWrapper || len(argv) == 0 || strings.ContainsRune(argv[0].val, '=') {
		return WrittenOther
	}
	for _, w := range argv {
		if !w.static || !bareWord(w.val) {
			return WrittenOther
		}
	}
	return WrittenAsArgv
}

// bareWord: a non-empty word of characters the shell reads as themselves
// anywhere in a word, not starting with ~ or #, not a NAME=value.
func bareWord(v string) bool {
	if v == "" || v[0] == '~' || v[0] == '#' {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case c == '-' || c == '_' || c == '.' || c == '/' || c == ':' || c == ',' || c == '+' || c == '@' || c == '%':
		case c == '=' && i > 0:
		default:
			return false
		}
	}
	return true
}

package policy

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Brace expansion is the first thing bash does to a command's words, and
// it does it before it looks at what the command is: `{rm,-rf,"$HOME/.ssh"}`
// is the three words rm, -rf and $HOME/.ssh, so bash runs rm. Every reading
// of shell text in this package goes through parseShell, which expands the
// braces of every simple command's words (and of `for … in` lists) the way
// bash does, with mvdan.cc/sh's own SplitBraces and expand.BracesSeq, so
// the walk, the reader and the substitution checks judge the words bash
// will run rather than the text that was typed.

// maxBraceWords bounds how many words one command's braces may become. A
// larger expansion ({1..99999999}, {a,b}{a,b}… many times over) is not
// enumerated: its words are replaced by one that cannot be known, which
// asks.
const maxBraceWords = 512

// parseShell parses text as bash and expands the braces in it. braced
// holds the words a brace expansion produced (nil when there were none):
// which role each plays depends on how many there are, so their readers
// hold them to a stricter standard.
func parseShell(text string) (f *syntax.File, braced map[*syntax.Word]bool, err error) {
	noteParse(text) // parsewatch.go
	if err := tooDeepToRead(text, nil); err != nil {
		return nil, nil, err // readdepth.go: the parser would recurse past its stack
	}
	p := parserPool.Get().(*syntax.Parser)
	f, err = p.Parse(strings.NewReader(text), "")
	parserPool.Put(p)
	if err != nil {
		return nil, nil, err
	}
	if err := tooDeepToRead(text, f); err != nil {
		return nil, nil, err // readdepth.go: every walk of f would
	}
	if ifsOnlyExpanded(text) {
		braced = splitIFS(f) // ifssplit.go: rm${IFS}-rf${IFS}~ is rm -rf ~
	}
	if strings.IndexByte(text, '{') < 0 {
		return f, braced, nil // the common case: nothing to expand
	}
	for w := range expandBraces(f) {
		if braced == nil {
			braced = map[*syntax.Word]bool{}
		}
		braced[w] = true
	}
	return f, braced, nil
}

// expandBraces replaces, throughout n, the words of every simple command
// and every `for NAME in` list with their brace expansions, and returns
// the words it made.
func expandBraces(n syntax.Node) map[*syntax.Word]bool {
	var made map[*syntax.Word]bool
	fields := func(ws []*syntax.Word) []*syntax.Word {
		out, ok := braceFields(ws)
		if !ok {
			return ws
		}
		if made == nil {
			made = map[*syntax.Word]bool{}
		}
		old := make(map[*syntax.Word]bool, len(ws))
		for _, w := range ws {
			old[w] = true
		}
		for _, w := range out {
			if !old[w] {
				made[w] = true
			}
		}
		return out
	}
	syntax.Walk(n, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CallExpr:
			x.Args = fields(x.Args)
		case *syntax.WordIter:
			x.Items = fields(x.Items)
		}
		return true
	})
	return made
}

// braceFields expands the braces of ws as bash would. It reports false,
// leaving ws alone, when no word holds a brace expansion.
func braceFields(ws []*syntax.Word) ([]*syntax.Word, bool) {
	var out []*syntax.Word
	changed := false
	for i, w := range ws {
		if !mayBrace(w) {
			if changed {
				out = append(out, w)
			}
			continue
		}
		cp := &syntax.Word{Parts: slices.Clone(w.Parts)}
		if !syntax.SplitBraces(cp) {
			if changed {
				out = append(out, w)
			}
			continue
		}
		if !changed {
			out = append(out, ws[:i]...)
			changed = true
		}
		n := 0
		for ew, err := range expand.BracesSeq(nil, cp) {
			n++
			if err != nil || len(out) >= maxBraceWords {
				return append(out[:0:0], unknowableWord(w)), true
			}
			if nullWord(ew) {
				continue // bash drops an unquoted empty word: {python3,} is python3
			}
			out = append(out, ew)
		}
		if n == 0 {
			out = append(out, unknowableWord(w))
		}
	}
	return out, changed
}

// nullWord reports a word that expands to nothing and is not quoted: an
// empty element of a brace expansion, which bash removes from the line.
func nullWord(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); !ok || l.Value != "" {
			return false
		}
	}
	return true
}

// mayBrace is the cheap test: an unquoted literal part holding "{".
func mayBrace(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.IndexByte(l.Value, '{') >= 0 {
			return true
		}
	}
	return false
}

// unknowableWord stands for words that cannot be known before the line
// runs: an expansion of a variable no one set, so every reader of the line
// treats it as dynamic (the command name asks, an argument asks).
func unknowableWord(w *syntax.Word) *syntax.Word {
	return &syntax.Word{Parts: []syntax.WordPart{&syntax.ParamExp{
		Dollar: w.Pos(), Short: true, Param: &syntax.Lit{ValuePos: w.Pos(), Value: "SENTINEL_BRACE_EXPANSION_TOO_LARGE"},
	}}}
}

// bracedRead judges a path a brace expansion made that its program reads.
// Whether a word is read or written depends on how many words the braces
// made (`cp x {.git,y}/hooks/pre-commit` has three), so a made word that
// names a place inside the workspace a write could not go without asking
// (.git, a file that runs code later) asks too.
func (x *cmdCtx) bracedRead(w word) {
	paths := x.resolve(word{val: w.val, static: w.static, pattern: w.pattern})
	for _, p := range paths {
		if !within(p, x.c.ws) {
			continue
		}
		if f := x.c.judgePath(p, true); f.d > Allow {
			x.add(Ask, f.rule, "a brace expansion names "+rel(p, x.c.ws)+", where a write needs a person ("+f.reason+")")
		}
	}
}

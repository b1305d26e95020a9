// Package syntax colours source code one line at a time for the review
// screen's diff: comments, strings, numbers, keywords, constants, called
// names and keys, from a small table per language chosen by file name or a
// #! line (langs.go, detect.go).
//
// It owns only that split of a line into kinds. It must not do I/O, write
// terminal sequences (the caller maps a Kind to its theme's colour) or
// change a byte: the tokens of a line joined are the line, invalid UTF-8
// included, and a token never ends inside a UTF-8 sequence. A diff line is
// seen without its neighbours, so a string or comment that spans lines is
// coloured where it visibly starts, to the end of that line.
//
// It is a table, not a full lexer library, on purpose: a registry of every
// language's grammar loaded at package init cost each start of the sentinel
// binary (every `sandbox run`, shim and hook fallback) about 15 ms of CPU,
// three times the rest of its start, for a screen most starts never draw.
package syntax

import "strings"

// Kind is what a token is, for its colour.
type Kind uint8

// The kinds of token.
const (
	Plain    Kind = iota
	Keyword       // if, func, SELECT, FROM (Dockerfile)
	Constant      // true, nil, None
	String        // "…", '…', `…`
	Number        // 42, 0x1f, 3.5e2
	Comment       // // …, # …, /* … */, <!-- … -->
	Function      // a name called or defined: the word before "("
	Key           // a key of key: value and key = value lines, [section], $VAR, an HTML attribute
	Heading       // a Markdown heading
)

// Token is a run of a line's bytes of one kind.
type Token struct {
	Kind Kind
	Text string
}

// Tokens splits one line of l's code into tokens; joined, they are line.
// A nil *Lang gives the whole line as one Plain token.
func (l *Lang) Tokens(line string) []Token {
	if line == "" {
		return nil
	}
	if l == nil {
		return []Token{{Plain, line}}
	}
	s := scanner{l: l, line: line}
	s.run()
	return s.out
}

type scanner struct {
	l     *Lang
	line  string
	out   []Token
	plain int // start of the pending plain run
	inTag bool
}

// emit closes the pending plain run at i and adds line[i:j] as k.
func (s *scanner) emit(i, j int, k Kind) {
	if i > s.plain {
		s.add(Plain, s.line[s.plain:i])
	}
	if j > i {
		s.add(k, s.line[i:j])
	}
	s.plain = j
}

func (s *scanner) add(k Kind, text string) {
	if n := len(s.out); n > 0 && s.out[n-1].Kind == k {
		s.out[n-1].Text += text
		return
	}
	s.out = append(s.out, Token{k, text})
}

func (s *scanner) run() {
	l, line := s.l, s.line
	i := s.lineStart()
	for i < len(line) {
		c := line[i]
		switch {
		case s.comment(i):
			s.emit(i, len(line), Comment)
			i = len(line)
		case l.block[0] != "" && strings.HasPrefix(line[i:], l.block[0]):
			j := closeAt(line, i+len(l.block[0]), l.block[1])
			s.emit(i, j, Comment)
			i = j
		case strings.IndexByte(l.quotes, c) >= 0:
			j := stringEnd(line, i, l.tripleQuotes)
			k := String
			if l.keyStrings && followedBy(line, j, ':') {
				k = Key
			}
			s.emit(i, j, k)
			i = j
		case isDigit(c) && (i == 0 || !isWord(line[i-1])):
			j := i + 1
			for j < len(line) && (isWord(line[j]) || line[j] == '.' && j+1 < len(line) && isDigit(line[j+1])) {
				j++
			}
			s.emit(i, j, Number)
			i = j
		case l.vars && c == '$' && i+1 < len(line):
			j := varEnd(line, i)
			s.emit(i, j, Key)
			i = j
		case l.markup && c == '<' && i+1 < len(line) && (isLetter(line[i+1]) || line[i+1] == '/' || line[i+1] == '?' || line[i+1] == '!'):
			j := i + 2
			for j < len(line) && (isWord(line[j]) || line[j] == '-' || line[j] == ':') {
				j++
			}
			s.emit(i, j, Keyword)
			s.inTag = true
			i = j
		case s.inTag && c == '>':
			s.inTag = false
			i++
		case isWordStart(c):
			j := i + 1
			for j < len(line) && (isWord(line[j]) || l.dashWords && line[j] == '-') {
				j++
			}
			s.emit(i, j, s.wordKind(line[i:j], j))
			i = j
		default:
			i++
		}
	}
	s.emit(len(line), len(line), Plain)
}

// lineStart colours what only the start of a line can be — a heading, a
// key, a directive, a doc comment's middle line — and says where the rest
// of the line's scan begins.
func (s *scanner) lineStart() int {
	l, line := s.l, s.line
	ind := len(line) - len(strings.TrimLeft(line, " \t"))
	rest := line[ind:]
	switch {
	case l.headings && strings.HasPrefix(rest, "#"):
		s.emit(ind, len(line), Heading)
		return len(line)
	case l.block[0] == "/*" && (rest == "*" || strings.HasPrefix(rest, "* ") || strings.HasPrefix(rest, "*/")):
		j := closeAt(line, ind, l.block[1])
		s.emit(ind, j, Comment)
		return j
	case l.directives && strings.HasPrefix(rest, "#") && len(rest) > 1 && isLetter(rest[1]):
		j := ind + 1
		for j < len(line) && isWord(line[j]) {
			j++
		}
		s.emit(ind, j, Keyword)
		return j
	case l.keySep != "":
		return s.key(ind)
	}
	return 0
}

// key colours a line's leading key (YAML's "- name:", TOML's "a.b =",
// "[section]").
func (s *scanner) key(ind int) int {
	line := s.line
	start := ind
	if strings.HasPrefix(line[start:], "- ") {
		start += 2
	}
	if start < len(line) && line[start] == '[' {
		if end := strings.IndexByte(line[start:], ']'); end > 0 {
			s.emit(start, start+end+1, Key)
			return start + end + 1
		}
	}
	j := start
	for j < len(line) && (isWord(line[j]) || strings.IndexByte(".-/@", line[j]) >= 0) {
		j++
	}
	if j == start {
		return start
	}
	k := j
	for k < len(line) && (line[k] == ' ' || line[k] == '\t') {
		k++
	}
	if k < len(line) && strings.IndexByte(s.l.keySep, line[k]) >= 0 &&
		(line[k] != ':' || k+1 == len(line) || line[k+1] == ' ' || line[k+1] == '\t') {
		s.emit(start, j, Key)
		return j
	}
	return start
}

// comment says whether a line comment starts at i. "#" starts one only at
// the line's start or after a space, so a shell's $# or a URL's #anchor is
// not one.
func (s *scanner) comment(i int) bool {
	for _, m := range s.l.comments {
		if strings.HasPrefix(s.line[i:], m) {
			if m == "#" && i > 0 && s.line[i-1] != ' ' && s.line[i-1] != '\t' {
				continue
			}
			return true
		}
	}
	return false
}

func (s *scanner) wordKind(w string, end int) Kind {
	l := s.l
	key := w
	if l.foldCase {
		key = strings.ToLower(w)
	}
	if k, ok := l.kinds()[key]; ok {
		return k
	}
	switch {
	case s.inTag && followedBy(s.line, end, '='):
		return Key
	case followedBy(s.line, end, '(') && !l.markup:
		return Function
	}
	return Plain
}

// stringEnd is the end of the string opening at i: past its closing quote
// (a backslash escapes one, except in Go's raw strings), else the line's
// end. With triple, a tripled quote closes only at the same three.
func stringEnd(line string, i int, triple bool) int {
	q := line[i]
	if triple && strings.HasPrefix(line[i:], strings.Repeat(string(q), 3)) {
		return closeAt(line, i+3, strings.Repeat(string(q), 3))
	}
	for j := i + 1; j < len(line); j++ {
		switch line[j] {
		case '\\':
			if q != '`' {
				j++
			}
		case q:
			return j + 1
		}
	}
	return len(line)
}

// closeAt is the end of what mark closes, looked for from i; the line's
// end when it does not.
func closeAt(line string, i int, mark string) int {
	if i > len(line) {
		return len(line)
	}
	if k := strings.Index(line[i:], mark); k >= 0 {
		return i + k + len(mark)
	}
	return len(line)
}

// varEnd is the end of a shell or PHP variable starting at i ($NAME,
// ${…}, $1, $@).
func varEnd(line string, i int) int {
	j := i + 1
	switch {
	case line[j] == '{':
		return closeAt(line, j+1, "}")
	case isWordStart(line[j]):
		for j < len(line) && isWord(line[j]) {
			j++
		}
		return j
	case isDigit(line[j]) || strings.IndexByte("@*#?$!-", line[j]) >= 0:
		return j + 1
	}
	return j
}

// followedBy says whether, after spaces, line's next byte from i is c.
func followedBy(line string, i int, c byte) bool {
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	return i < len(line) && line[i] == c
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// isWordStart and isWord keep a multi-byte character inside one word (its
// bytes are all ≥ 0x80), so no token ends inside one.
func isWordStart(c byte) bool { return isLetter(c) || c == '_' || c >= 0x80 }
func isWord(c byte) bool      { return isWordStart(c) || isDigit(c) }

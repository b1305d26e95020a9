// Package nesting counts how deep text nests, cheaply and without
// parsing it, so that a parser that recurses once a level (mvdan's shell
// parser, the helper's TOML, JSON and YAML validators) is never handed
// text that would overflow its goroutine stack — a fatal error no caller
// can recover from. It is a leaf: the policy engine (every parse of shell
// text) and the root edit helper (sudoedit) share this one count.
package nesting

import "strings"

// Max bounds how deep brackets, braces and parentheses — and, in shell
// text, compound commands — may nest. No hand-written command, script or
// config nests this deep; `(` repeated 100,000 times took the shell
// parser ~15 s and 300,000 overflowed its stack.
const Max = 256

// TooDeep says what in text nests deeper than Max: "brackets",
// "compound commands" (only when shell), or "" when nothing does.
// It counts every ( [ { as an opening and every ) ] } as a closing,
// ignoring quoting: an opener inside a string counts too, which can only
// make it stricter, never let a deeper text through.
// For shell text, the compound commands (if, while, until, for,
// case, select) count as openings and fi, done, esac as closings, outside
// comments: "if a;then " repeated takes the parser seconds and a gigabyte.
// It costs one pass over text (two when shell) and never recurses.
func TooDeep(text string, shell bool) string {
	if shell && shellTooDeep(text) {
		return "compound commands"
	}
	depth := 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '(', '[', '{':
			depth++
			if depth > Max {
				return "brackets"
			}
		case ')', ']', '}':
			if depth > 0 {
				depth--
			}
		}
	}
	return ""
}

// shellTooDeep says whether shell text's compound commands nest deeper
// than Max; a keyword in a string counts too (stricter).
func shellTooDeep(text string) bool {
	depth := 0
	for line := range strings.SplitSeq(text, "\n") {
		for _, w := range strings.FieldsFunc(line, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r == '#')
		}) {
			if strings.HasPrefix(w, "#") {
				break // a comment, or what follows one
			}
			switch w {
			case "if", "while", "until", "for", "case", "select":
				depth++
				if depth > Max {
					return true
				}
			case "fi", "done", "esac":
				if depth > 0 {
					depth--
				}
			}
		}
	}
	return false
}

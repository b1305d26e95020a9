package policy

import (
	"fmt"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// Reading is one parse of a shell line (braces and ${IFS} expanded, as
// parseShell does), for a caller that asks several questions of the same
// line: Line reads it as ReadShell does, and a Query that carries it
// (Query.Reading) is judged on it instead of parsing Command again. The
// walk and the reader only read the syntax tree (TestReadingIsNotChanged),
// so one Reading serves any number of Checks, by any Engine, in any
// Context, and gives each the answer a fresh parse would.
type Reading struct {
	text   string
	f      *syntax.File
	braced map[*syntax.Word]bool
	err    error // the parse error, as parseShell gave it

	once sync.Once
	line *Line
	lerr error
}

// Read parses line once. An unparseable line is a Reading too: Line
// returns the error, and a Check on it asks, as for the text itself.
func Read(line string) *Reading {
	r := &Reading{text: line}
	if strings.IndexByte(line, 0) < 0 { // the engine and ReadShell refuse a NUL before parsing
		r.f, r.braced, r.err = parseShell(line)
	}
	return r
}

// Text is the line that was read.
func (r *Reading) Text() string { return r.text }

// Line is ReadShell's answer for the line, from this parse.
func (r *Reading) Line() (*Line, error) {
	r.once.Do(func() {
		switch {
		case strings.IndexByte(r.text, 0) >= 0:
			r.lerr = fmt.Errorf("cannot parse %q as a shell command: it holds a NUL byte", r.text)
		case r.err != nil:
			r.lerr = fmt.Errorf("cannot parse %q as a shell command: %w", r.text, r.err)
		default:
			rd := reader{src: r.text, braced: r.braced}
			r.line = &Line{Stmts: rd.stmts(r.f.Stmts)}
		}
	})
	return r.line, r.lerr
}

// parsed is parseShell's answer for text: the Reading's when it read
// text, a fresh parse otherwise.
func (r *Reading) parsed(text string) (*syntax.File, map[*syntax.Word]bool, error) {
	if r != nil && r.text == text && strings.IndexByte(text, 0) < 0 {
		return r.f, r.braced, r.err
	}
	return parseShell(text)
}

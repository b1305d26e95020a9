package policy

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/sentinelhq/sentinel/policy/nesting"

	"mvdan.cc/sh/v3/syntax"
)

// DeeperThan says whether the line's syntax tree nests more than max
// nodes deep. The engine's walks (syntax.Walk and its own) recurse once a
// level, so a tree a few hundred thousand levels deep — `a && ` or `+1`
// in $(( )) repeated, which parse without any bracket — overflows the
// goroutine stack, a fatal error no caller can recover from. A caller
// that takes lines from a client asks this before judging one. It walks
// with its own stack, never recursing.
// A line parseShell refused for its depth (TooDeep) is deeper than any
// max a caller asks about.
func (r *Reading) DeeperThan(max int) bool {
	if r.TooDeep() != nil {
		return true
	}
	return r.f != nil && deeperThan(r.f, max)
}

// deeperThan is DeeperThan for a parsed file.
func deeperThan(f *syntax.File, max int) bool {
	type item struct {
		v     reflect.Value
		depth int
	}
	stack := []item{{reflect.ValueOf(f), 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		v := it.v
		for v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
			if v.IsNil() {
				v = reflect.Value{}
				break
			}
			v = v.Elem()
		}
		if !v.IsValid() || v.Kind() != reflect.Struct {
			continue
		}
		if it.depth > max {
			return true
		}
		for i := 0; i < v.NumField(); i++ {
			f := v.Field(i)
			switch f.Kind() {
			case reflect.Pointer, reflect.Interface:
				if !f.IsNil() && nodeField(f) {
					stack = append(stack, item{f, it.depth + 1})
				}
			case reflect.Slice:
				for j := 0; j < f.Len(); j++ {
					if e := f.Index(j); (e.Kind() == reflect.Pointer || e.Kind() == reflect.Interface) && !e.IsNil() && nodeField(e) {
						stack = append(stack, item{e, it.depth + 1})
					}
				}
			}
		}
	}
	return false
}

// syntaxPkg is the syntax package's path, a constant: working it out
// with reflect at init would be work at every start (TestPolicyInitDoesNoWork);
// TestSyntaxPkgIsTheParsersPackage keeps it true.
const syntaxPkg = "mvdan.cc/sh/v3/syntax"

// nodeField says whether v (a non-nil pointer or interface) holds one of
// the syntax package's structs: a node, not a position or a string.
func nodeField(v reflect.Value) bool {
	for v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return false
		}
		v = v.Elem()
	}
	return v.Kind() == reflect.Struct && v.Type().PkgPath() == syntaxPkg
}

// MaxSyntaxDepth bounds how deep a parsed line's syntax tree may be
// before anything walks it (a bracket level is two to four levels of it).
const MaxSyntaxDepth = 4096

// minDeepText is the shortest text whose tree could be deeper than
// MaxSyntaxDepth: every level of nesting takes at least one byte of
// source and makes at most four levels of tree ($( is CmdSubst, Stmt,
// CallExpr, Word for two bytes), so a shorter text is not measured.
const minDeepText = MaxSyntaxDepth / 4

// TooDeepError is parseShell's refusal of text that nests deeper than
// Sentinel reads: before parsing, brackets or compound commands over
// nesting.Max (the parser recurses once a level and overflows its stack;
// 100,000 `(` took it ~15 s), and after, a syntax tree over
// MaxSyntaxDepth (`ls && ` or `+1` in $(( )) repeated parse without a
// bracket, and every walk of the tree recurses once a level). The engine
// asks about such text (RuleShellTooDeep); a reader gets it as the error.
type TooDeepError struct {
	What   string // "brackets", "compound commands" or "syntax tree"
	Parsed bool   // refused after parsing (the tree), not before
}

func (e *TooDeepError) Error() string {
	return "this command nests deeper than Sentinel reads: it " + e.Detail()
}

// Detail says how the text is too deep, as a verb phrase ("nests brackets
// … more than 256 deep; …") for a caller that names the text itself.
func (e *TooDeepError) Detail() string {
	switch {
	case e.Parsed:
		return fmt.Sprintf("chains or nests more than %d levels deep (&&, ||, |, arithmetic operators...); it is refused before it is judged", MaxSyntaxDepth)
	case e.What == "compound commands":
		return fmt.Sprintf("nests compound commands (if, while, for, case...) more than %d deep; it is refused before it is parsed", nesting.Max)
	}
	return fmt.Sprintf("nests brackets or parentheses more than %d deep (counted inside quoting too); it is refused before it is parsed", nesting.Max)
}

// TooDeep is the line's TooDeepError when parseShell refused it for its
// depth, nil otherwise.
func (r *Reading) TooDeep() *TooDeepError {
	var td *TooDeepError
	if errors.As(r.err, &td) {
		return td
	}
	return nil
}

// tooDeepToRead bounds parseShell before and after it parses text.
func tooDeepToRead(text string, f *syntax.File) error {
	if f == nil {
		if what := nesting.TooDeep(text, true); what != "" {
			return &TooDeepError{What: what}
		}
		return nil
	}
	if len(text) >= minDeepText && deeperThan(f, MaxSyntaxDepth) {
		return &TooDeepError{What: "syntax tree", Parsed: true}
	}
	return nil
}

package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Pattern removal in a parameter expansion (issue 32, polcorp15):
// ${VAR%PAT} and ${VAR%%PAT} drop the shortest and longest suffix PAT
// matches, ${VAR#PAT} and ${VAR##PAT} the shortest and longest prefix. On
// a variable whose value the line knows (its own bindings, $PWD, $HOME)
// the result is known: "${PWD%/*}" is the project's parent folder, which
// rm -rf "$(dirname "$PWD")" is too, and "${PWD##*/}" the project's name.
// Only an unquoted literal pattern of *, ? and plain characters is read;
// a bracket, an expansion or a quoted part leaves the word unknown.

// patternRemoval: op is one of the four removals.
func patternRemoval(op syntax.ParExpOperator) bool {
	switch op {
	case syntax.RemSmallSuffix, syntax.RemLargeSuffix, syntax.RemSmallPrefix, syntax.RemLargePrefix:
		return true
	}
	return false
}

// removalBase is the value of PWD or HOME for a removal when the line does
// not bind them.
func (b *binder) removalBase(name string) ([]string, bool) {
	switch {
	case name == "PWD" && b.cwd != "":
		return []string{b.cwd}, true
	case name == "HOME" && b.c.home != "":
		return []string{b.c.home}, true
	}
	return nil, false
}

// removePattern applies one removal to val.
func (b *binder) removePattern(op syntax.ParExpOperator, val string, pw *syntax.Word) ([]string, bool) {
	pat, ok := plainGlobWord(pw)
	if !ok {
		return nil, false
	}
	n := len(val)
	switch op {
	case syntax.RemSmallSuffix:
		for i := n; i >= 0; i-- {
			if removalMatch(pat, val[i:]) {
				return []string{val[:i]}, true
			}
		}
	case syntax.RemLargeSuffix:
		for i := 0; i <= n; i++ {
			if removalMatch(pat, val[i:]) {
				return []string{val[:i]}, true
			}
		}
	case syntax.RemSmallPrefix:
		for i := 0; i <= n; i++ {
			if removalMatch(pat, val[:i]) {
				return []string{val[i:]}, true
			}
		}
	case syntax.RemLargePrefix:
		for i := n; i >= 0; i-- {
			if removalMatch(pat, val[:i]) {
				return []string{val[i:]}, true
			}
		}
	}
	return []string{val}, true
}

// plainGlobWord is a removal's pattern when it is one unquoted literal of
// *, ? and plain characters.
func plainGlobWord(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", true
	}
	if len(w.Parts) != 1 {
		return "", false
	}
	lit, ok := w.Parts[0].(*syntax.Lit)
	if !ok || strings.ContainsAny(lit.Value, "[]\\") || len(lit.Value) > 64 {
		return "", false
	}
	return lit.Value, true
}

// removalMatch: s matches the glob pat of * (any text, slashes too, as in a
// removal) and ? (one character).
func removalMatch(pat, s string) bool {
	for len(pat) > 0 {
		switch pat[0] {
		case '*':
			for len(pat) > 0 && pat[0] == '*' {
				pat = pat[1:]
			}
			if pat == "" {
				return true
			}
			for i := 0; i <= len(s); i++ {
				if removalMatch(pat, s[i:]) {
					return true
				}
			}
			return false
		case '?':
			if s == "" {
				return false
			}
			pat, s = pat[1:], s[1:]
		default:
			if s == "" || s[0] != pat[0] {
				return false
			}
			pat, s = pat[1:], s[1:]
		}
	}
	return s == ""
}

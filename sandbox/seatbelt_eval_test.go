package sandbox

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// A small reader of the Seatbelt profiles renderSeatbelt writes, so tests
// can ask "may this operation touch this path?" the way the kernel decides
// it: the last rule whose operation and filters match wins; no match is
// the default. It knows the filters the renderer uses and nothing more.

type sbExpr struct {
	atom string // a symbol, a "string" (unquoted), or a #"regex" (with its #)
	list []sbExpr
	str  bool
}

type sbRule struct {
	allow   bool
	ops     []string
	filters []sbExpr
	text    string
}

func parseSB(t *testing.T, src string) (rules []sbRule, defaultAllow bool) {
	t.Helper()
	exprs, err := readSB(src)
	if err != nil {
		t.Fatalf("the profile does not read as S-expressions: %v\n%s", err, src)
	}
	for _, e := range exprs {
		if len(e.list) == 0 {
			t.Fatalf("a top-level atom %q", e.atom)
		}
		head := e.list[0].atom
		switch head {
		case "version":
			continue
		case "allow", "deny":
		default:
			t.Fatalf("unknown form %q", head)
		}
		r := sbRule{allow: head == "allow", text: e.String()}
		for _, x := range e.list[1:] {
			if x.list == nil && !x.str {
				r.ops = append(r.ops, x.atom)
			} else {
				r.filters = append(r.filters, x)
			}
		}
		if len(r.ops) == 1 && r.ops[0] == "default" {
			defaultAllow = r.allow
			continue
		}
		rules = append(rules, r)
	}
	return rules, defaultAllow
}

func (e sbExpr) String() string {
	if e.list == nil {
		if e.str {
			return fmt.Sprintf("%q", e.atom)
		}
		return e.atom
	}
	var parts []string
	for _, x := range e.list {
		parts = append(parts, x.String())
	}
	return "(" + strings.Join(parts, " ") + ")"
}

func readSB(src string) ([]sbExpr, error) {
	var stack [][]sbExpr
	var top []sbExpr
	push := func(e sbExpr) {
		if len(stack) == 0 {
			top = append(top, e)
		} else {
			stack[len(stack)-1] = append(stack[len(stack)-1], e)
		}
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ';':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == ' ' || c == '\n' || c == '\t':
			i++
		case c == '(':
			stack = append(stack, []sbExpr{})
			i++
		case c == ')':
			if len(stack) == 0 {
				return nil, fmt.Errorf("unbalanced ) at %d", i)
			}
			l := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if l == nil {
				l = []sbExpr{}
			}
			push(sbExpr{list: l})
			i++
		case c == '"' || (c == '#' && i+1 < len(src) && src[i+1] == '"'):
			regex := c == '#'
			if regex {
				i++
			}
			i++
			var b strings.Builder
			for ; i < len(src) && src[i] != '"'; i++ {
				if src[i] == '\\' && !regex {
					i++
				}
				if src[i] == '\n' {
					return nil, fmt.Errorf("a newline inside a string at %d", i)
				}
				b.WriteByte(src[i])
			}
			if i >= len(src) {
				return nil, fmt.Errorf("unterminated string")
			}
			i++
			a := b.String()
			if regex {
				a = "#" + a
			}
			push(sbExpr{atom: a, str: true})
		default:
			j := i
			for j < len(src) && !strings.ContainsRune(" \n\t();\"", rune(src[j])) {
				j++
			}
			push(sbExpr{atom: src[i:j]})
			i = j
		}
	}
	if len(stack) != 0 {
		return nil, fmt.Errorf("unbalanced (")
	}
	return top, nil
}

// opMatches: op names the operation asked; pat is a rule's, maybe with a
// trailing * (file-read* covers file-read-data and file-read-metadata).
func opMatches(pat, op string) bool {
	if p, ok := strings.CutSuffix(pat, "*"); ok {
		return strings.HasPrefix(op, p)
	}
	return pat == op
}

// filterMatchesPath says whether f, a path filter, matches path; other
// filters never match a path.
func filterMatchesPath(t *testing.T, f sbExpr, path string) bool {
	if len(f.list) != 2 || !f.list[1].str {
		return false
	}
	arg := f.list[1].atom
	switch f.list[0].atom {
	case "literal":
		return path == arg
	case "subpath":
		return within(path, arg)
	case "regex":
		re, err := regexp.Compile(strings.TrimPrefix(arg, "#"))
		if err != nil {
			t.Fatalf("regex %q: %v", arg, err)
		}
		return re.MatchString(path)
	}
	return false
}

// sbDecide is what the profile answers for op on path.
func sbDecide(t *testing.T, rules []sbRule, def bool, op, path string) (allowed bool, by string) {
	allowed, by = def, "(default)"
	for _, r := range rules {
		hit := false
		for _, o := range r.ops {
			hit = hit || opMatches(o, op)
		}
		if !hit {
			continue
		}
		match := len(r.filters) == 0
		for _, f := range r.filters {
			match = match || filterMatchesPath(t, f, path)
		}
		if match {
			allowed, by = r.allow, r.text
		}
	}
	return allowed, by
}

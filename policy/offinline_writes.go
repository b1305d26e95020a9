package policy

import "strings"

// Inline code that writes project files by name, with the sandbox off
// (issue 32, off26): `python3 - <<'EOF' … p = Path('src/config.py');
// p.write_text(p.read_text().replace('DEBUG = True', 'DEBUG = False')) …
// EOF` and `json.dump(d, open('data/config.json', 'w'))` are how agents
// edit a file with a script, the same edit `sed -i` makes. Off, a snippet
// that otherwise passes offComputeOnly may write files it names with one
// plain string literal (literalWrites, codewrites.go, as inside the
// sandbox): each target is judged as any write of that path is with the
// sandbox off (a run-later file asks, .git and outside the workspace are
// denied or asked, in place as a write in place is), and the handle
// writes those opens make possible are taken out before riskyCodeToken
// judges the rest. A write whose target is built, any other writable
// handle, and every other risk still ask.
//
// Python's str.replace(old, new) is an everyday edit, while Path.replace
// (target) renames a file (pyMutators): a .replace( call given two or
// more arguments is a string's and is taken out before the mutator check.

// offLiteralWrites judges the literal write targets of name's code with
// the sandbox off and returns the code left to judge (see above).
func (x *cmdCtx) offLiteralWrites(name, code string) string {
	b := baseName(name)
	if !strings.HasPrefix(b, "python") && !jsLike(b) {
		return code
	}
	return x.literalWrites(code)
}

// strReplaceCalls returns code with every .replace( call that is given
// two or more arguments (a string's replace, not Path.replace's rename)
// spelled .substitute(.
func strReplaceCalls(code string) string {
	const call = ".replace("
	var b strings.Builder
	for {
		i := strings.Index(code, call)
		if i < 0 {
			b.WriteString(code)
			return b.String()
		}
		args := code[i+len(call):]
		if end := closingParen(args); end >= 0 {
			args = args[:end]
		}
		b.WriteString(code[:i])
		if len(splitCodeArgs(args)) >= 2 {
			b.WriteString(".substitute(")
		} else {
			b.WriteString(call)
		}
		code = code[i+len(call):]
	}
}

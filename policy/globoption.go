package policy

import (
	"path"
	"strings"
)

// A glob bash expands before the program reads its arguments can become
// an option: `rg x *` in a folder holding a file named --pre=sh runs sh on
// every file it searches, and so does `rg x --pr*`. The engine asks about
// such a glob (command.go); OptionGlob lets a reader that only looks for
// the commands a line spells (mcp's allowlist) refuse it.

// OptionGlob is the first argument of the command's program that bash may
// expand to a file name the program reads as an option, or "" when there
// is none: a glob that begins with a glob character, or with a dash and no
// '=' before its first glob character (--pr*, -?pre=sh), or a brace
// expansion holding one, before a `--` and for a program that has no
// option running a program or writing a file (globSafe).
func (c *Command) OptionGlob() string {
	prog, _ := programOf(c.words)
	if len(prog) == 0 {
		return ""
	}
	name := path.Base(prog[0].val)
	if globSafe.has(name) || globSafeVerb(name, prog) {
		return ""
	}
	for _, a := range prog[1:] {
		if a.val == "--" && a.static {
			return ""
		}
		if a.brace && strings.ContainsAny(a.val, "*?[") || globReadAsOption(a) {
			return a.val
		}
	}
	return ""
}

// globReadAsOption says whether the unquoted glob a may expand to a word
// that reads as another option than the one it spells: it begins with a
// glob character, or it begins with a dash and the option's name is not
// yet complete (no '=') where the first glob character stands.
func globReadAsOption(a word) bool {
	if !a.pattern || a.val == "" {
		return false
	}
	i := strings.IndexAny(a.val, "*?[")
	switch {
	case i < 0:
		return false
	case i == 0:
		return true
	}
	return a.val[0] == '-' && !strings.Contains(a.val[:i], "=")
}

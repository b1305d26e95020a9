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
// expansion holding one, before a `--` that ends its options (endsOptions)
// and for a program that has no
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
	for i, a := range prog[1:] {
		if a.val == "--" && a.static && endsOptions(prog, i+1) {
			return ""
		}
		if a.brace && strings.ContainsAny(a.val, "*?[") || globReadAsOption(a) {
			return a.val
		}
	}
	return ""
}

// endsOptions says whether the static `--` at prog[i] ends the program's
// options. It does not when it may be the value of the word before it (an
// option such as -f, -e or -C that takes the next word: `tar -cf -- *`
// writes the archive "--" and reads the glob's --checkpoint-action=exec=…
// as options; `git -C -- log *`), or of tar's first, old-style bundle
// (`tar cf -- *`), nor for find, whose expression follows its `--`
// (`find -- *` with a file named -delete deletes the folder).
func endsOptions(prog []word, i int) bool {
	name := path.Base(prog[0].val)
	if name == "find" {
		return false
	}
	if i == 1 {
		return true
	}
	prev := prog[i-1]
	switch {
	case !prev.static:
		return false
	case prev.val != "--" && len(prev.val) > 1 && prev.val[0] == '-' && !strings.Contains(prev.val, "="):
		return false
	case i == 2 && name == "tar":
		return false
	}
	return true
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

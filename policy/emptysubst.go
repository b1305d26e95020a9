package policy

import (
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A substitution written inline in a destructive argument (issue 32):
// `rm -rf "$(git rev-parse --show-toplevel)/build"` is judged through the
// producer's stand-in (subst.go), as if the producer succeeded. When it
// fails (not a repository, git missing) it prints nothing and the shell
// runs `rm -rf /build`. A path argument of a program that deletes or
// overwrites is therefore judged also with every substitution empty, the
// worst value, and asks when that value leaves the workspace. Everyday
// forms where the substitution is not a path of a delete (`cd "$(git
// rev-parse --show-toplevel)" && make test`, `git log --author="$(git
// config user.name)"`) are not touched.

// emptySubstValue decodes w with every substitution empty; ok is false
// when w holds none or cannot be decoded.
func (c *checkEnv) emptySubstValue(w *syntax.Word) (string, bool) {
	c.substEmpty = true
	defer func() { c.substEmpty = false }()
	ew, ok := c.substWord(w)
	if !ok || ew.subst == substNone && !hasSubstVar(c, w) {
		return "", false
	}
	return ew.val, true
}

// hasSubstVar reports whether w uses a variable bound to a producer's
// output (NAME=$(producer); substassign.go).
func hasSubstVar(c *checkEnv, w *syntax.Word) bool {
	found := false
	syntax.Walk(w, func(n syntax.Node) bool {
		if p, ok := n.(*syntax.ParamExp); ok {
			if _, bound := c.substVars[p]; bound {
				found = true
			}
		}
		return !found
	})
	return found
}

// overwriters delete or overwrite the paths they are given.
var overwriters = wordSet{words: []string{"rm", "rmdir", "unlink", "shred", "truncate", "mv", "cp", "ln", "install",
	"rsync", "tee", "dd"}}

// judgeEmptySubst asks when a path argument of a delete or overwrite
// leaves the workspace once its substitutions print nothing.
func (x *cmdCtx) judgeEmptySubst(args []word) {
	if len(args) < 2 || !overwriters.has(filepath.Base(args[0].val)) {
		return
	}
	prog := filepath.Base(args[0].val)
	for _, a := range args[1:] {
		if !a.hasIfEmpty {
			continue
		}
		v := a.ifEmpty
		if i := strings.IndexByte(v, '='); i >= 0 && (strings.HasPrefix(v, "-") || prog == "dd") {
			v = v[i+1:] // --target-directory=…, of=…
		}
		if !strings.HasPrefix(v, "/") || v == a.val {
			continue
		}
		p := x.c.canon(filepath.Clean(v))
		if within(p, x.c.ws) || x.c.tmp != "" && within(p, x.c.tmp) {
			continue
		}
		x.add(Ask, RuleDestructive, prog+" is given "+quoteShort(a.val)+", whose substitution prints nothing when its command fails: the path is then "+quoteShort(v)+", outside the workspace")
		return
	}
}

package policy

import (
	"path/filepath"
	"strings"
)

// Reads beside the workspace, decided by sandbox mode (polcorp7 class 2):
// `diff -rq src/ ../backup-src/`, `realpath ../shared`, `ls ../`. Inside
// the sandbox the workspace's parent and its siblings are not shown
// (Landlock limits reads to system and named locations; what it shows of
// the person's setup is toolchains, with their credential files hidden),
// so such a read finds nothing or what the sandbox chose to show: it is
// allowed. With the sandbox off the read reaches the person's files and
// still asks. Never a secret: a credential location is denied before
// this, and a hidden element (../.aws, ../x/.env) or a secret-looking name
// keeps asking in both modes, as does the person's home itself (`grep -r
// KEY ~` aims at their secrets whatever the sandbox shows).

// siblingRead allows, inside the sandbox, a read outside the workspace by a
// read-only inspector (diff, ls, realpath, cat: the command's own judgement
// is read-only inspection) of a place the sandbox does not show. A build,
// a package manager or git pointed there (`mvn --file ../other/pom.xml`,
// `pnpm -C ~/other`, `git am ../x.patch`) would run or take in what it
// finds, and keeps asking.
func (x *cmdCtx) siblingRead(f finding, p string, write bool) finding {
	if write || f.d != Ask || f.rule != RulePathReadOutside || x.f.rule != RuleReadOnly || !x.c.sandboxHiddenSibling(p) {
		return f
	}
	return finding{Allow, RuleReadOnly, "reads " + x.c.show(p) + ", beside the workspace, which the sandbox does not show: the read finds nothing of the person's"}
}

// sandboxHiddenSibling reports a read of p that the sandbox keeps from the
// coder: p is the workspace's parent or below it, beside the workspace,
// and names nothing hidden or secret.
func (c *checkEnv) sandboxHiddenSibling(p string) bool {
	if !c.sandbox || c.ws == "" {
		return false
	}
	parent := filepath.Dir(c.ws)
	if parent == "/" || parent == c.ws || !within(p, parent) || within(p, c.ws) {
		return false
	}
	if c.home != "" && within(c.home, p) {
		return false // ~ itself, or above it: a search of the person's home asks by what it aims at
	}
	for _, d := range systemSecrets {
		if within(parent, d) {
			return false
		}
	}
	r := rel(p, parent)
	if r == "" || r == "." {
		return true
	}
	for _, el := range strings.Split(r, "/") {
		if strings.HasPrefix(el, ".") || secretName(el) {
			return false
		}
	}
	return true
}

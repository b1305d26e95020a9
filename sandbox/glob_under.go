package sandbox

import (
	"os"
	"path/filepath"
	"strings"
)

// globUnder is filepath.Glob(filepath.Join(root, pattern)) for a pattern
// whose wildcards are whole path elements (rootSecrets'), at a fraction of
// the cost: filepath.Glob reads every directory it passes through, even to
// find one literal name in it, and "*/etc/npmrc" under a version manager's
// root read each of its dozens of directories whole on every sandbox
// start. Here an element with a wildcard reads its directory; a literal
// one is one stat (a directory on the way must be one, following links,
// as Glob requires; the last element only has to exist, as a link that
// leads nowhere does for Glob too).
func globUnder(root, pattern string) []string {
	var out []string
	var walk func(dir string, elems []string)
	walk = func(dir string, elems []string) {
		elem, last := elems[0], len(elems) == 1
		var names []string
		if strings.ContainsAny(elem, `*?[\`) {
			ents, err := os.ReadDir(dir)
			if err != nil {
				return
			}
			for _, e := range ents {
				if ok, err := filepath.Match(elem, e.Name()); err == nil && ok {
					names = append(names, e.Name())
				}
			}
		} else {
			names = []string{elem}
		}
		for _, n := range names {
			p := filepath.Join(dir, n)
			if last {
				if _, err := os.Lstat(p); err == nil {
					out = append(out, p)
				}
				continue
			}
			if st, err := os.Stat(p); err == nil && st.IsDir() {
				walk(p, elems[1:])
			}
		}
	}
	if st, err := os.Stat(root); err == nil && st.IsDir() && pattern != "" {
		walk(filepath.Clean(root), strings.Split(filepath.Clean(pattern), "/"))
	}
	return out
}

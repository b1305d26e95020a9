package checkpoint

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

// checkEntries refuses a saved manifest holding an entry no record makes:
// a path that is not clean and local to the place, or one at or below a
// git dir other than the git dir's own presence entry (take records a
// `.git` by presence and never descends into it). The store is the
// person's (0700, shown to no sandbox) and its manifests are not signed;
// undo still opens every path beneath the place, and with this a
// rewritten manifest cannot have undo write into a git dir (a hook) either.
func checkEntries(m *Manifest) error {
	for _, e := range m.Entries {
		p := e.Path // a slash path on every system, as take records it
		if p == "" || path.Clean(p) != p || !filepath.IsLocal(filepath.FromSlash(p)) {
			return fmt.Errorf("entry %q is not a path inside the place", p)
		}
		parts := strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == filepath.Separator })
		for i, el := range parts {
			if el == ".git" && (i != len(parts)-1 || e.Kind != KindGit) {
				return fmt.Errorf("entry %q lies in a git dir, which no record holds", p)
			}
		}
	}
	return nil
}

package agentutil

import (
	"errors"
	"os"
	"path/filepath"
)

// ResolveExisting resolves the symlinks of the longest existing ancestor
// of p (p itself included) and re-attaches the rest, so a path through a
// link is judged by where it leads even when its last parts do not exist
// yet. Any other error leaves p as it is.
func ResolveExisting(p string) string {
	rest := ""
	cur := p
	for {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(r, rest)
		} else if !errors.Is(err, os.ErrNotExist) {
			return p
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

//go:build !unix

package gitdir

import (
	"os"
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/filestamp"
)

// MoveOut renames p to dir/name; nothing is ever copied or deleted.
func (Mover) MoveOut(root, p string, _ filestamp.ID, dir, name string) error {
	return os.Rename(p, filepath.Join(dir, name))
}

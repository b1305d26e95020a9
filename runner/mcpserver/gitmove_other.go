//go:build !unix

package mcpserver

import (
	"os"
	"path/filepath"
)

// moveOut renames p to dir/name; nothing is ever copied or deleted.
func moveOut(root, p string, _ fileID, dir, name string) error {
	return os.Rename(p, filepath.Join(dir, name))
}

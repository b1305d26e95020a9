//go:build !unix

package mcpserver

import (
	"errors"
	"os"
	"path/filepath"
)

// fileID is a file's identity; this system gives none, so the sweep
// knows git dirs by path.
type fileID struct{}

func idOf(p string) (fileID, error) {
	if _, err := os.Lstat(p); err != nil {
		return fileID{}, err
	}
	return fileID{}, errors.New("no file identity on this system")
}

// moveOut renames p to dir/name; nothing is ever copied or deleted.
func moveOut(root, p string, _ fileID, dir, name string) error {
	return os.Rename(p, filepath.Join(dir, name))
}

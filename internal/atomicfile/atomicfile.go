// Package atomicfile replaces a file whole: a temporary file beside it,
// written, given its mode, synced and renamed over it, so a reader sees the
// old bytes or the new ones, never a torn write, and a crash leaves one of
// the two.
//
// It is for files in the person's own directories (state, templates,
// service units). It must not be used in a directory the coder can write:
// there a planted link or name is hostile input (runner/safefile.go).
package atomicfile

import (
	"os"
	"path/filepath"
)

// Write replaces path with b, with mode perm.
func Write(path string, b []byte, perm os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	for _, step := range []func() error{
		func() error { _, err := tmp.Write(b); return err },
		func() error { return tmp.Chmod(perm) },
		tmp.Sync,
	} {
		if err := step(); err != nil {
			tmp.Close()
			return err
		}
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

//go:build unix

package mcpserver

import (
	"errors"

	"golang.org/x/sys/unix"
)

// renameNoReplace renames without replacing what is at the destination;
// a file system without RENAME_NOREPLACE gets a plain rename (the caller
// checked the destination, and kept aside what was there, first).
func renameNoReplace(olddir int, oldname string, newdir int, newname string) error {
	err := unix.Renameat2(olddir, oldname, newdir, newname, unix.RENAME_NOREPLACE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) {
		err = unix.Renameat(olddir, oldname, newdir, newname)
	}
	return err
}

//go:build unix && !linux

package mcpserver

import "golang.org/x/sys/unix"

// renameNoReplace is a plain rename where the kernel has no
// RENAME_NOREPLACE: the caller checked the destination, and kept aside what
// was there, first.
func renameNoReplace(olddir int, oldname string, newdir int, newname string) error {
	return unix.Renameat(olddir, oldname, newdir, newname)
}

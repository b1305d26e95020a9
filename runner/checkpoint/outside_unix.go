//go:build unix

package checkpoint

import (
	"os"

	"golang.org/x/sys/unix"
)

// linkFromStore replaces base in pr by a hard link to the store's file
// at anchor: a new name made in pr's directory (opened as undo opens it,
// following no link), renamed over base.
func linkFromStore(pr *os.Root, anchor, base string) error {
	d, err := pr.Open(".")
	if err != nil {
		return err
	}
	defer d.Close()
	tmp := besideName(base, "undo")
	if err := unix.Linkat(unix.AT_FDCWD, anchor, int(d.Fd()), tmp, 0); err != nil {
		return err
	}
	if err := pr.Rename(tmp, base); err != nil {
		pr.Remove(tmp)
		return err
	}
	return nil
}

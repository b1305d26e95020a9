//go:build unix

package codex

import (
	"errors"
	"os"
	"syscall"
)

// trustedProgram is nil when path is a regular file (not a symlink)
// owned by root that no group or other user may write.
func trustedProgram(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case !fi.Mode().IsRegular():
		return errors.New(path + " is not a regular file")
	case !ok || st.Uid != 0:
		return errors.New(path + " is not owned by root")
	case fi.Mode().Perm()&0o022 != 0:
		return errors.New(path + " may be written by others than root")
	}
	return nil
}

//go:build unix

package gitdir

import "golang.org/x/sys/unix"

// FailRenamesForTest makes MoveOut's rename fail with err (unix.EXDEV:
// the quarantine on another file system) until restore is called. For
// tests of the packages that sweep.
func FailRenamesForTest(err error) (restore func()) {
	renameat = func(int, string, int, string) error { return err }
	return func() { renameat = unix.Renameat }
}

//go:build unix

package gitdir

import (
	"golang.org/x/sys/unix"

	"github.com/sentinelhq/sentinel/internal/filestamp"
)

// writable gives the person's user back the bits a move out of the
// directory parent needs, where the coder (the same user) took them away:
// write and search on parent (its entry base leaves it) and on base itself
// when it is a directory (a directory moved to another directory has its
// ".." rewritten). base is opened without following a link and must still
// be the entry the sweep saw (id). It returns what puts parent's mode
// back; base, once moved out, keeps the bits it was given (the person
// looks at it in the quarantine).
func writable(parent int, base string, id filestamp.ID) (restore func(), err error) {
	var pst unix.Stat_t
	if err := unix.Fstat(parent, &pst); err != nil {
		return nil, err
	}
	restore = func() {}
	if pm := pst.Mode & 0o7777; pm&0o300 != 0o300 {
		if err := chmodFd(parent, uint32(pm|0o300)); err != nil {
			return nil, err
		}
		restore = func() { _ = chmodFd(parent, uint32(pm)) }
	}
	efd, err := unix.Openat(parent, base, walkFlag|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		restore()
		return nil, err
	}
	defer unix.Close(efd)
	var est unix.Stat_t
	if err := unix.Fstat(efd, &est); err != nil || !sameID(&est, id) {
		restore()
		return nil, ErrChanged
	}
	if est.Mode&unix.S_IFMT == unix.S_IFDIR && est.Mode&0o700 != 0o700 {
		if err := chmodFd(efd, uint32(est.Mode&0o7777|0o700)); err != nil {
			restore()
			return nil, err
		}
	}
	return restore, nil
}

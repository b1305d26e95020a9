package inside

import (
	"errors"
	"math"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// closeOnExecFrom marks every descriptor from lowest up close-on-exec, so
// that none reaches the command: close_range where the kernel has it
// (5.11), else each descriptor /proc/self/fd lists.
func closeOnExecFrom(lowest int) error {
	err := unix.CloseRange(uint(lowest), math.MaxUint32, unix.CLOSE_RANGE_CLOEXEC)
	if err == nil {
		return nil
	}
	if !errors.Is(err, unix.ENOSYS) && !errors.Is(err, unix.EINVAL) {
		return err
	}
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return err
	}
	for _, e := range entries {
		fd, err := strconv.Atoi(e.Name())
		if err != nil || fd < lowest {
			continue
		}
		// The directory's own descriptor is gone by now: EBADF is fine.
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_SETFD, unix.FD_CLOEXEC); err != nil && !errors.Is(err, unix.EBADF) {
			return err
		}
	}
	return nil
}

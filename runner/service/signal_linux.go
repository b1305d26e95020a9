package service

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// signal sends sig to the process t names, never to another: a pidfd is
// opened first, then the pid's start time and owner are checked; the pidfd
// keeps naming the process that was checked even if the pid is reused
// right after, so the signal reaches that process or none.
func signal(ctx context.Context, t Target, sig syscall.Signal) error {
	fd, err := unix.PidfdOpen(int(t.PID), 0)
	if err != nil {
		if errors.Is(err, unix.ESRCH) {
			return errGone
		}
		return fmt.Errorf("pidfd_open %d: %w", t.PID, err)
	}
	defer unix.Close(fd)
	start, ok := startOf(ctx, t.PID)
	if !ok || start != t.Start {
		return errGone
	}
	real, eff, ok := uidOf(ctx, t.PID)
	if !ok {
		return errGone
	}
	if me := os.Getuid(); real != me || eff != me {
		return fmt.Errorf("pid %d belongs to uid %d, not this user (%d): not ours to end", t.PID, eff, me)
	}
	if err := unix.PidfdSendSignal(fd, sig, nil, 0); err != nil {
		if errors.Is(err, unix.ESRCH) {
			return errGone
		}
		return fmt.Errorf("signal %d: %w", t.PID, err)
	}
	return nil
}

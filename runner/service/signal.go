package service

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"

	"github.com/shirou/gopsutil/v4/process"
	"golang.org/x/sys/unix"
)

// Target names one process by its identity: the pid and its start time. A
// pid alone is a number the kernel hands out again once the process is
// gone.
type Target struct {
	PID   int32
	Start int64 // ms since the epoch, as Proc.Start
}

// errGone: the process the target named no longer exists (it ended, or
// its pid now belongs to another process).
var errGone = errors.New("the process is gone (its pid is free or now another process's)")

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

// alive says whether the process t names still exists (a zombie waiting
// for its parent counts as gone: it runs nothing).
func alive(ctx context.Context, t Target) bool {
	ctx = realProc(ctx)
	start, ok := startOf(ctx, t.PID)
	if !ok || start != t.Start {
		return false
	}
	p, err := process.NewProcessWithContext(ctx, t.PID)
	if err != nil {
		return false
	}
	st, err := p.StatusWithContext(ctx)
	if err != nil {
		return false
	}
	for _, s := range st {
		if s == process.Zombie {
			return false
		}
	}
	return true
}

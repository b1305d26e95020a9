//go:build !linux

package service

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"syscall"
)

// signal sends sig to the process t names after checking its start time
// and owner. Without Linux's pidfd this is weaker on macOS: the pid could
// in principle be handed to another process between the check and the
// kill (os.Process holds no reference to the process there). On Windows
// os.FindProcess opens a handle first, which keeps naming the process
// that was checked, and every signal ends the process (Windows has no
// SIGTERM to send).
func signal(ctx context.Context, t Target, sig syscall.Signal) error {
	p, err := os.FindProcess(int(t.PID))
	if err != nil {
		return errGone
	}
	defer p.Release()
	start, ok := startOf(ctx, t.PID)
	if !ok || start != t.Start {
		return errGone
	}
	if runtime.GOOS != "windows" {
		real, eff, ok := uidOf(ctx, t.PID)
		if !ok {
			return errGone
		}
		if me := os.Getuid(); real != me || eff != me {
			return fmt.Errorf("pid %d belongs to uid %d, not this user (%d): not ours to end", t.PID, eff, me)
		}
	}
	var send os.Signal = sig
	if runtime.GOOS == "windows" {
		send = os.Kill
	}
	if err := p.Signal(send); err != nil {
		if errors.Is(err, os.ErrProcessDone) {
			return errGone
		}
		return fmt.Errorf("signal %d: %w", t.PID, err)
	}
	return nil
}

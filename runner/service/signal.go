package service

import (
	"context"
	"errors"

	"github.com/shirou/gopsutil/v4/process"
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

package main

import (
	"context"
	"path/filepath"
	"time"

	"github.com/sentinelhq/sentinel/approvals/queue"
)

// pendingOf is how many requests wait on a person for each of root's
// runs, as the user service (sentinel status) knows it; empty when the
// service is not running (then no run's request waits in its queue).
func pendingOf(ctx context.Context, root string) map[string]int {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second) // a bound on a hung service
	defer cancel()
	runs, err := queue.Runs(ctx)
	if err != nil {
		return nil
	}
	return pendingIn(runs, root)
}

// pendingIn is pendingOf from the service's list of runs.
func pendingIn(runs []queue.RunStatus, root string) map[string]int {
	real, _ := filepath.EvalSymlinks(root)
	out := map[string]int{}
	for _, r := range runs {
		if r.Pending > 0 && (r.Project == root || r.Project == real) {
			out[r.Run] += r.Pending
		}
	}
	return out
}

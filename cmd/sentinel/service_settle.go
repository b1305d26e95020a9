package main

import (
	"context"
	"path/filepath"

	"github.com/sentinelhq/sentinel/runner"
)

// settleRun is the service's Settler: a run whose process went away
// without a final report is settled from its own signed records (a landing
// cut short finished or found never begun, an unfinished apply undone, the
// work kept in recovery), and its state is what the record says after. A
// run still running by its record, or whose records cannot be read, says
// nothing ("": it stays gone).
func settleRun(ctx context.Context, project, run string) string {
	m, err := runner.SettleRun(ctx, project, run)
	if err != nil || m.Status == runner.StatusRunning {
		return ""
	}
	return finalState(runner.StateOf(m), m.Status, filepath.Join(project, ".sentinel", "runs", run))
}

package runner

import (
	"time"

	"github.com/sentinelhq/sentinel/internal/procgroup"
	"github.com/sentinelhq/sentinel/runner/coder"
)

// hookSettle bounds how long a coder's leftover processes may finish after
// it exits, when its failure is told by a hook: Claude Code runs its
// StopFailure hook on its own time and may exit (the person's /exit) while
// the hook's client is still starting, and the group's kill would end it
// before its report reaches the journal — the run would land empty
// instead of failing with the agent's error.
const hookSettle = 3 * time.Second

// settleHooks waits, up to hookSettle, for what is left in the exited
// coder's process group to end by itself, when its failure comes from a
// hook; others' groups are not waited for.
func (r *coderStage) settleHooks(pid int) {
	switch coder.FailureSourceOf(r.adapter) {
	case coder.StopHook, coder.StopHookOrExit:
	default:
		return
	}
	deadline := time.Now().Add(hookSettle)
	for procgroup.GroupAlive(pid) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
}

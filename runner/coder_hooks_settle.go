package runner

import (
	"fmt"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"

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

// settleHooks waits, up to bound, for what is left in the exited coder's
// process group to end by itself, when its failure comes from a hook;
// others' groups are not waited for. A wait that outlasts a moment says so
// on the system lane, so the person is not left looking at nothing.
func (r *coderStage) settleHooks(pid int, bound time.Duration) {
	switch coder.FailureSourceOf(r.adapter) {
	case coder.StopHook, coder.StopHookOrExit:
	default:
		return
	}
	start := time.Now()
	said := false
	for procgroup.GroupAlive(pid) && time.Since(start) < bound {
		if !said && time.Since(start) > 250*time.Millisecond {
			said = true
			r.emit(journal.System, KindNotice, fmt.Sprintf("the coder exited; what it left running has up to %s to finish its hooks' reports", bound), nil)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

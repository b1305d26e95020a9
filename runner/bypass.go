package runner

import "github.com/sentinelhq/sentinel/approvals"

// onBypass is the broker's word that a tool call ran though Sentinel did
// not allow it (approvals/bypass.go): a hook of the coder's agent was ended
// before its answer, by the coder or by the machine. The gate cannot be
// trusted for the rest of the run, so the coder is stopped at once and the
// run ends failed: in a sandboxed run nothing lands, in place the person is
// told which call ran.
func (r *containment) onBypass(b approvals.Bypass) {
	if r.bypassed.CompareAndSwap(nil, &b) {
		r.stop.raise()
	}
}

// hookOnlyGated is an adapter that can say its agent runs a call whose hook
// failed (runner/codex in place): the broker then watches for calls that
// ran without an allow.
type hookOnlyGated interface{ HookIsOnlyGate() bool }

func hookOnlyGate(a Adapter) bool {
	g, ok := a.(hookOnlyGated)
	return ok && g.HookIsOnlyGate()
}

// bypassFailure is the run's outcome when its gate was passed by, or nil.
func (r *containment) bypassFailure() error {
	if b := r.bypassed.Load(); b != nil {
		return b
	}
	return nil
}

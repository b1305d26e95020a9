package e2etest

import "testing"

// The entry points below run Bin, the sentinel binary Main built: the end-to-end
// packages call them directly; Run, StartTmux and KillNineWhen take another
// binary.

// Sentinel runs Bin with args in dir (see Run).
func Sentinel(t testing.TB, dir string, env []string, args ...string) Result {
	t.Helper()
	return Run(t, Bin, dir, env, args...)
}

// StartSentinel starts Bin with args in dir in a 200×60 tmux window (see
// StartTmux).
func StartSentinel(t *testing.T, dir string, env []string, args ...string) *Tmux {
	t.Helper()
	return StartTmux(t, Bin, dir, env, args...)
}

// StartSentinelSized is StartSentinel in a window cols by rows.
func StartSentinelSized(t *testing.T, cols, rows int, dir string, env []string, args ...string) *Tmux {
	t.Helper()
	return StartTmuxSized(t, Bin, cols, rows, dir, env, args...)
}

// KillSentinelWhen is KillNineWhen with Bin.
func KillSentinelWhen(t *testing.T, dir, marker string, args ...string) string {
	t.Helper()
	return KillNineWhen(t, Bin, dir, marker, args...)
}

package e2etest

import "testing"

// Check runs one check of an agent session that serves several (issue 33:
// an agent CLI's start is most of an end-to-end test's CPU, so checks that
// share an agent and its setup share one start) as t's subtest named for
// the protection it checks, so a failure still names that protection.
// While it runs, tm's waits and keys belong to the subtest (a wait that
// gives up fails it, not the session's test). It reports whether the check
// passed; a caller whose later checks need the session to have gone on
// stops there when it did not.
func (tm *Tmux) Check(t *testing.T, name string, check func(t *testing.T)) bool {
	t.Helper()
	session := tm.T
	defer func() { tm.T = session }()
	return t.Run(name, func(t *testing.T) {
		tm.T = t
		check(t)
	})
}

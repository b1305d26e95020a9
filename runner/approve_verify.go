package runner

import (
	"fmt"
	"strings"

	"github.com/sentinelhq/sentinel/sandbox"
)

// ApproveOptions say how `sentinel review` lands a finished run.
type ApproveOptions struct {
	// Sandbox is the sandbox verification runs in.
	Sandbox sandbox.Mode
	// Checks verify the change when the run recorded none of its own (the
	// project's configured or detected checks, or review's --verify).
	Checks []Check
	// ChecksGiven says Checks were given for this review (--verify): they
	// then come before the checks the run planned but never ran.
	ChecksGiven bool
	// Force lands a run that never passed verification without verifying
	// it; what was not checked is printed by the caller and journaled.
	Force bool
}

// Unverified says why the whole change must be verified on a clean copy
// before it may land ("" when it already passed): the run failed, was
// interrupted or got stuck before or during verification, or a check
// failed. The status the run ended with counts, not one a later review
// gave it (a rejected failure is still a failure).
func (f *Finished) Unverified() string {
	m := f.Meta
	status := m.Status
	if evs, err := readRecord(f.Dir); err == nil {
		for _, ev := range evs {
			if d, ok := AsRunEnd(ev); ok && d.Status != "" {
				status = d.Status
			}
		}
	}
	for _, c := range m.Checks {
		if !c.Passed() {
			return fmt.Sprintf("run %s failed verification (%s exited %d)", m.ID, c.Command, c.ExitCode)
		}
	}
	switch status {
	case StatusPending, StatusRejected, StatusLanded:
		return "" // these passed verification before they reached review
	case StatusFailed, StatusInterrupted:
		return fmt.Sprintf("run %s %s before its change passed verification", m.ID, status)
	}
	return fmt.Sprintf("run %s ended as %q, not after passing verification", m.ID, status)
}

// verifyChecks are the checks a late verification runs: the run's own when
// it ran any, else the ones given for this review, else the ones the run
// planned (it was stopped before verification), else o.Checks (the
// project's configured or detected ones).
func (f *Finished) verifyChecks(o ApproveOptions) []Check {
	var checks []Check
	for _, c := range f.Meta.Checks {
		checks = append(checks, c.Check)
	}
	if len(checks) == 0 && !o.ChecksGiven {
		checks = append(checks, f.Meta.Planned...)
	}
	if len(checks) == 0 {
		checks = o.Checks
	}
	return checks
}

// NotChecked is the plain account of what a forced landing skips.
func (f *Finished) NotChecked(o ApproveOptions) string {
	why := f.Unverified()
	if why == "" {
		return ""
	}
	var cmds []string
	for _, c := range f.verifyChecks(o) {
		cmds = append(cmds, c.Command)
	}
	if len(cmds) == 0 {
		return why + "; no check ran on this change"
	}
	return why + "; not run on a clean copy: " + strings.Join(cmds, "; ")
}

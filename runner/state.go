package runner

import "github.com/sentinelhq/sentinel/approvals/queue"

// The run-state vocabulary: every view (sentinel runs, sentinel status, the
// console, the web page, the TUI's end line) tells a run's state with the
// word State gives, so the same run reads the same everywhere. The service
// takes these words as reported (queue.EndState).

// StateOf is the state word of the run m records.
func StateOf(m *Meta) string {
	if m.Status == StatusRunning && m.Reviewing {
		return queue.StateReviewing
	}
	return stateWord(m.Status, m.Landing, m.Recovery, m.Stuck)
}

// StateOf is the state word of the run that ended with r.
func (r Result) StateOf() string { return stateWord(r.Status, r.Landing, r.Recovery, r.Stuck) }

// State is the one mapping from a run's status, landing and recovery
// directory to its state word: the status ("running", "landed",
// "awaiting-review", "rejected", "failed", "interrupted", "done"),
// NoChanges for a landed run that changed no files, Kept for one whose
// change --apply none kept without landing it, and " (recovery)"
// after it when the work was kept in recovery.
func State(s Status, l *Landing, recovery string) string { return stateWord(s, l, recovery, false) }

// stateWord is State for a run that may have been stuck: a failed run whose
// completion gate gave up on the coder is "stuck" (queue.StateStuck), in
// every view, so the console keeps it in sight and `runs` agrees.
func stateWord(s Status, l *Landing, recovery string, stuck bool) string {
	w := EndWord(s, l)
	if stuck && s == StatusFailed {
		w = queue.StateStuck
	}
	if w == "" {
		w = string(StatusRunning)
	}
	if recovery != "" && s != StatusRunning {
		w += queue.RecoverySuffix
	}
	return w
}

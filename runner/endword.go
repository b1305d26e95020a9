package runner

// NoChanges is how a run that landed nothing ends: the coder changed no
// files, and "landed" would say otherwise. Its status stays StatusLanded
// (it succeeded; exit status 0).
const NoChanges = "no changes"

// EndWord is the word a run's end is told with: its status, or NoChanges
// when the coder changed no files (nothing landed, or a branch that holds
// only the snapshot of the person's uncommitted changes).
func (r Result) EndWord() string { return EndWord(r.Status, r.Landing) }

// EndWord is the word for a run with status s that landed l.
func EndWord(s Status, l *Landing) string {
	if s == StatusLanded && l != nil && (l.Nothing || len(l.Files) == 0) {
		return NoChanges
	}
	return string(s)
}

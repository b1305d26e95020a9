package runner

// NoChanges is how a run that landed nothing ends: the coder changed no
// files, and "landed" would say otherwise. Its status stays StatusLanded
// (it succeeded; exit status 0).
const NoChanges = "no changes"

// Kept is how a run with --apply none ends well: its change is kept (the
// patch, for sentinel review) and nothing is in the repository, so
// "landed" would contradict the repository. Its status stays StatusLanded
// (it succeeded; exit status 0).
const Kept = "kept"

// EndWord is the word a run's end is told with: its status, NoChanges
// when the coder changed no files (nothing landed, or a branch that holds
// only the snapshot of the person's uncommitted changes), or Kept when
// --apply none kept the change without landing it.
func (r Result) EndWord() string { return EndWord(r.Status, r.Landing) }

// EndWord is the word for a run with status s that landed l.
func EndWord(s Status, l *Landing) string {
	if s == StatusLanded && l != nil && (l.Nothing || len(l.Files) == 0) {
		return NoChanges
	}
	if s == StatusLanded && l != nil && l.Mode == ApplyNone {
		return Kept
	}
	return string(s)
}

package runner

import "fmt"

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

// LandingLine is the one sentence every view ends a run with (the run's
// exit line, the TUI, `sentinel review --approve`, the journal): what
// landed and where. A landing that holds none of the coder's files —
// nothing landed, or a branch that holds only the snapshot of the person's
// uncommitted changes — never says "landed" (#37 F5): it reads as
// EndWord does, "no changes".
func LandingLine(l Landing) string {
	switch {
	case l.Nothing || len(l.Files) == 0:
		s := NoChanges + ": the coder changed no files"
		if l.Branch != "" {
			s += fmt.Sprintf(" (branch %s holds only the snapshot of your uncommitted changes)", l.Branch)
		}
		return s
	case l.Mode == ApplyWorktree:
		return fmt.Sprintf("applied %d file(s) to your working tree", len(l.Files))
	case l.Mode == ApplyNone || l.Branch == "":
		return fmt.Sprintf("kept the patch (%d file(s)); nothing applied (--apply none)", len(l.Files))
	}
	commits := ""
	if len(l.Commits) > 0 {
		commits = fmt.Sprintf(", %d commit(s)", len(l.Commits))
	}
	return fmt.Sprintf("landed on branch %s (%d file(s)%s); your checkout is unchanged — see: git log --stat %s", l.Branch, len(l.Files), commits, l.Branch)
}

package runner

import "fmt"

// renderSnapshot explains, under "What landed", the snapshot commit a
// landed branch starts from: a run begins from HEAD plus the person's
// uncommitted changes, committed as a snapshot so the coder works on what
// the person saw, and the branch carries that commit under the coder's.
// It ends with the one git command that lands the coder's commit alone.
// Empty when the run started from a clean HEAD or landed no branch.
func renderSnapshot(m *Meta) string {
	l := m.Landing
	if l == nil || l.Branch == "" || l.Snapshot == "" {
		return ""
	}
	s := fmt.Sprintf("\nThe branch starts from the snapshot commit %s: your HEAD at the start (%s) plus the uncommitted changes you had then, "+
		"committed by Sentinel so the coder worked on exactly what you saw. ", md(short(l.Snapshot)), md(short(m.Base)))
	if l.Commit == "" {
		return s + "The coder changed nothing, so the branch holds only that snapshot; your working tree still has those changes.\n"
	}
	return s + fmt.Sprintf("That is why the branch has two commits, the snapshot and the coder's (%s); your working tree still has those uncommitted changes. "+
		"To keep only the coder's commit, on top of your HEAD at the start, without the snapshot:\n\n"+
		"```\ngit rebase --onto %s %s %s\n```\n\n"+
		"Like any rebase it checks the branch out and needs a clean working tree: commit or `git stash` your own changes first. "+
		"If the coder's change builds on your uncommitted one, the rebase stops with a conflict: resolve it, or `git rebase --abort` and keep the snapshot.\n",
		md(short(l.Commit)), md(m.Base), md(l.Snapshot), md(l.Branch))
}

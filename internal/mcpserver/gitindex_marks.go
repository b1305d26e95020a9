package mcpserver

import (
	"errors"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"

	"github.com/sentinelhq/sentinel/internal/gitindex"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// A command may also mark an entry of the rw path's index so that git
// does not look at its file — assume-unchanged, or skip-worktree (what a
// sparse checkout sets on the files outside its cone) — and then change
// the file: the person's git status, git diff and git commit -a pass the
// change by for good (in a sparse checkout git takes skip-worktree off a
// file it finds present, never assume-unchanged). After each command each
// mark the command added is taken off and named: every assume-unchanged,
// and skip-worktree on a file present in the work tree (one absent is
// what a sparse checkout does to the files it leaves out, and git then
// does not read it).

// checkMarks takes the marks a command added to the index of gd (the
// own git dir of root) since start off, and names each.
func checkMarks(root, gd string, start []byte) []string {
	was, err := gitindex.Marks(start)
	if err != nil {
		was = map[string]gitindex.Mark{}
	}
	now, err := gitindex.Read(gd)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	var has map[string]gitindex.Mark
	if err == nil {
		has, err = gitindex.Marks(now)
	}
	if err != nil {
		return []string{"could not look at the git index of " + root + " for files the command hid from git: " + err.Error()}
	}
	clear := map[string]gitindex.Mark{}
	for p, m := range has {
		m &^= was[p]
		if m&gitindex.Skip != 0 && !present(filepath.Join(root, filepath.FromSlash(p))) {
			m &^= gitindex.Skip
		}
		if m != 0 {
			clear[p] = m
		}
	}
	if len(clear) == 0 {
		return nil
	}
	b, err := gitindex.WithoutMarks(now, clear)
	if err == nil {
		err = gitindex.Replace(gd, now, b)
	}
	var said []string
	for _, p := range slices.Sorted(maps.Keys(clear)) {
		line := root + ": " + p + ": the command marked it " + clear[p].String() + " in your git index, which hides its changes from git status, git diff and git commit; "
		if err == nil {
			line += "the mark was taken off"
		} else {
			line += "could not take the mark off (" + err.Error() + ") [DANGEROUS: `git update-index --no-assume-unchanged --no-skip-worktree -- " + p + "` shows it again]"
		}
		said = append(said, textsafe.Line(line))
	}
	return said
}

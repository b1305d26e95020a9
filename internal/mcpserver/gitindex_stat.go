package mcpserver

import (
	"errors"
	"io/fs"
	"maps"
	"slices"

	"github.com/sentinelhq/sentinel/internal/gitindex"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// A command may also change a tracked file and rewrite that file's stat
// record in the index to match it (or plant a whole index so): git trusts
// the record and does not read the file, so the person's git status, git
// diff and git commit -a pass the change by for good. sentinel exec finds
// this at the end of an in-place run by asking git what it sees
// (runner/inplace_index.go hiddenChanges); here, after each command, each
// entry whose record the command rewrote is hashed against what it
// stages, and one that differs has its record cleared (as
// `git update-index --cacheinfo` leaves it: git reads the file again)
// and is named.

// checkStat clears the stat records the command forged in the index of gd
// (the own git dir of root) since start, and names each.
func checkStat(root, gd string, start []byte) []string {
	now, err := gitindex.Read(gd)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	var es []gitindex.Entry
	var hashLen int
	if err == nil {
		es, hashLen, err = gitindex.StatChanged(start, now)
	}
	if err != nil {
		return []string{"could not look at the git index of " + root + " for changes the command hid from git: " + err.Error()}
	}
	stale := map[string]bool{}
	var said []string
	for _, e := range es {
		s, err := gitindex.Stale(root, e, hashLen)
		if err != nil {
			s = true // unreadable: clearing the record only makes git look
		}
		if s {
			stale[e.Path] = true
		}
	}
	if len(stale) == 0 {
		return nil
	}
	b, err := gitindex.WithoutStat(now, stale)
	if err == nil {
		err = gitindex.Replace(gd, now, b)
	}
	for _, p := range slices.Sorted(maps.Keys(stale)) {
		line := root + ": " + p + ": the command wrote a stat record for it in your git index that does not match what the index stages, so git status, git diff and git commit would pass its change by; "
		if err == nil {
			line += "the record was cleared, git reads the file again"
		} else {
			line += "could not clear it (" + err.Error() + ") [DANGEROUS: `touch " + p + "` shows it again]"
		}
		said = append(said, textsafe.Line(line))
	}
	return said
}

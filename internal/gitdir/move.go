package gitdir

import (
	"errors"
	"io/fs"
	"os"

	"github.com/sentinelhq/sentinel/internal/filestamp"
)

// The git dirs and pointers a coder makes in the person's files are moved
// out (MoveOut), never deleted, and each one found later is judged by what
// it is, not how it is spelled (Baseline): the same git dir at a new path
// (a parent renamed) is the person's still; one whose identity was not
// there at the start is new. sentinel exec and sentinel mcp both sweep
// with these.

// HeldPrefix begins the name an entry that could not be moved out at once
// is renamed to in its own directory: git does not look for a .git by it.
const HeldPrefix = ".sentinel-quarantine-"

// Mover moves git dirs and pointers out (MoveOut). The zero Mover is the
// program's; a test hands its guard a Mover whose renames fail, to stand
// in for a quarantine on another file system.
type Mover struct {
	// Renameat renames across directories (unix.Renameat when nil); a
	// rename within one directory (holding an entry in place) is always
	// the system's.
	Renameat func(olddirfd int, oldpath string, newdirfd int, newpath string) error
	// afterCopy runs between the copy and the removal of a move across
	// file systems (tests change the source there).
	afterCopy func()
}

// MoveOut is the zero Mover's MoveOut.
func MoveOut(root, p string, id filestamp.ID, dir, name string) error {
	return Mover{}.MoveOut(root, p, id, dir, name)
}

// ErrChanged is an entry that is no longer the one the sweep found.
var ErrChanged = errors.New("it is not the one Sentinel found any more (it changed while Sentinel looked)")

// IDOf is p's identity (device, inode), not following p itself when it is
// a link.
func IDOf(p string) (filestamp.ID, error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return filestamp.ID{}, err
	}
	return filestamp.IDOf(fi)
}

// Baseline is the git dirs and pointers a place had at the start: by
// identity where the system gives one, by path where it does not.
type Baseline struct {
	paths map[string]bool
	ids   map[filestamp.ID]string
}

// NewBaseline remembers seen (a Scan's Seen, with whatever the caller
// adds) as the person's.
func NewBaseline(seen map[string]bool) *Baseline {
	b := &Baseline{paths: map[string]bool{}, ids: map[filestamp.ID]string{}}
	for p := range seen {
		b.Add(p)
	}
	return b
}

// Add remembers p as the person's.
func (b *Baseline) Add(p string) {
	b.paths[p] = true
	if id, err := IDOf(p); err == nil {
		b.ids[id] = p
	}
}

// Verdict is what a git dir or pointer found now is.
type Verdict int

const (
	// New: not there at the start (or only its path was): to be moved out.
	New Verdict = iota
	// Known: the person's, where it was.
	Known
	// Moved: the person's, at a new path (a parent renamed); Judge
	// remembers it there.
	Moved
	// Gone: nothing is at the path any more.
	Gone
)

// Judge says what p, found now, is, and its identity (the zero ID where
// the system gives none); for Moved, from is where it was. A second link
// to a pointer the person has (its old path still has the identity) is
// New: a hard link is a new pointer.
func (b *Baseline) Judge(p string) (v Verdict, id filestamp.ID, from string) {
	id, err := IDOf(p)
	if errors.Is(err, fs.ErrNotExist) {
		return Gone, id, ""
	}
	if err != nil {
		if b.paths[p] {
			return Known, id, ""
		}
		return New, id, ""
	}
	old, ok := b.ids[id]
	switch {
	case !ok:
		return New, id, ""
	case old == p:
		return Known, id, ""
	}
	if was, err := IDOf(old); err == nil && was == id {
		return New, id, "" // a second link to it
	}
	b.ids[id] = p
	b.paths[p] = true
	return Moved, id, old
}

// Has says whether id is the identity of a git dir or pointer the place
// had at the start.
func (b *Baseline) Has(id filestamp.ID) bool {
	_, ok := b.ids[id]
	return ok
}

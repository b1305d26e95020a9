// Package gitstore moves the git objects a sandboxed command wrote aside
// into a repository's object store, each one only once it is proven.
//
// In place (sentinel exec, and every repository of sentinel mcp's rw
// paths), the person's objects/ is read-only to the coder, whose git
// writes new objects to a scratch object dir (GIT_OBJECT_DIRECTORY, the
// person's store as an alternate): nothing the coder runs can delete,
// truncate or rewrite an object the person has. Move takes what the
// scratch dir holds into the stores: each loose object and each pack is
// first copied into a private directory inside the destination store
// (which the coder cannot reach), proven there — a loose object's content
// hashed against its name, a pack with git verify-pack — and only then
// renamed to its name, so what is proven is exactly what enters, whatever
// the coder does to the scratch dir meanwhile. What is not proven is
// handed to the caller to move out (quarantine) and name. What is not an
// object or a pack (commit-graph, multi-pack-index, bitmaps,
// info/alternates, git's temp files) never enters: git rebuilds what it
// needs. Each store's object format (SHA-1 or SHA-256) is its own: an
// object or pack whose name is of the other format never enters it, and
// a loose object is hashed as that store hashes. A pack larger than
// MaxPack is not verified (git verify-pack on a huge pack would hold the
// end of the run for as long as the coder likes) but refused and named,
// and so is one whose verification outlasts its time bound (VerifyBound).
package gitstore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/internal/gitdir"
)

var packName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^pack-([0-9a-f]{40}|[0-9a-f]{64})\.pack$`)
})

// Store is an object store objects move into.
type Store struct {
	Dir string // the objects directory
	// HexLen is the length of its object names: 40 for SHA-1, 64 for
	// SHA-256 (the repository's extensions.objectformat). Run refuses a
	// store without one: an object is proven by its store's hash.
	HexLen int
}

// DefaultMaxPack is the largest pack Move verifies when Move.MaxPack is 0.
const DefaultMaxPack int64 = 2 << 30

// Move is one moving of a scratch object dir's objects into stores.
type Move struct {
	From string  // the scratch object dir
	Into []Store // every proven object enters each of these
	// VerifyPack proves the pack of the index idx (a copy inside the
	// store into), as git verify-pack does.
	VerifyPack func(ctx context.Context, into Store, idx string) error
	// Refuse is told of a file of From that is not proven, and why; it
	// moves it out of From (or it is looked at again the next time).
	Refuse func(path, why string)
	// KeepUnfinished leaves a pack without its index in From (a git still
	// running may be about to write the index) instead of refusing it.
	KeepUnfinished bool
	// MaxPack bounds the size of a pack (and of its index) that is
	// copied and verified; a larger one is refused. 0: DefaultMaxPack.
	MaxPack int64
	// Rename renames a proven file into its store (os.Rename when nil);
	// tests stand in for a rename that fails.
	Rename func(oldpath, newpath string) error
	// VerifyBound is how long VerifyPack may take on a pack of n bytes
	// (VerifyBoundOf when nil); a pack whose verification has not ended
	// by then is refused and named.
	VerifyBound func(n int64) time.Duration
}

// VerifyBoundOf is the default time bound of verifying a pack of n bytes:
// a minute, and a minute more for every 64 MiB.
func VerifyBoundOf(n int64) time.Duration {
	return time.Minute + time.Duration(n/(64<<20))*time.Minute
}

// mover is one Run of a Move: its staging dirs, one per store, made when
// first needed and removed when the run ends.
type mover struct {
	Move
	r      *os.Root
	stages map[string]string // store dir -> its staging dir
}

// Run moves what From holds: each proven object into every store of Into
// that lacks it, then out of From. An error is a store that could not be
// written; what was not moved then stays in From.
func (m Move) Run(ctx context.Context) error {
	for _, st := range m.Into {
		if st.HexLen != 40 && st.HexLen != 64 {
			return fmt.Errorf("the object format of %s is not known (object names of %d digits); nothing was moved", st.Dir, st.HexLen)
		}
	}
	if m.MaxPack <= 0 {
		m.MaxPack = DefaultMaxPack
	}
	if m.Rename == nil {
		m.Rename = os.Rename
	}
	if m.VerifyBound == nil {
		m.VerifyBound = VerifyBoundOf
	}
	// Everything in From is read, copied and removed through a root on
	// it: From is the coder's, and a pack dir or an object dir in it that
	// is a link (made so, or swapped in while this runs) to the person's
	// store would otherwise have the person's own packs and objects found
	// "in From", judged present in the store, and removed.
	r, err := os.OpenRoot(m.From)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer r.Close()
	mv := &mover{Move: m, r: r, stages: map[string]string{}}
	defer mv.removeStages()
	dirs, err := readDir(r, ".")
	if err != nil {
		return err
	}
	var errs []error
	for _, d := range dirs {
		if !d.IsDir() || !gitdir.IsLooseName(d.Name(), strings.Repeat("0", 38)) {
			continue
		}
		files, _ := readDir(r, d.Name())
		for _, f := range files {
			if !f.Type().IsRegular() || !gitdir.IsLooseName(d.Name(), f.Name()) {
				continue // git's temp files and the like: not objects
			}
			if err := mv.loose(d.Name(), f.Name()); err != nil {
				errs = append(errs, err)
			}
		}
	}
	packs, _ := readDir(r, "pack")
	for _, pk := range packs {
		if !pk.Type().IsRegular() || !packName().MatchString(pk.Name()) {
			continue
		}
		if err := mv.pack(ctx, pk.Name()); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// readDir lists the directory name of r, which is not followed out of r.
func readDir(r *os.Root, name string) ([]fs.DirEntry, error) {
	if name != "." {
		if fi, err := r.Lstat(name); err != nil || !fi.IsDir() {
			return nil, err // a link is not the directory: not listed
		}
	}
	d, err := r.Open(name)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.ReadDir(-1)
}

// loose moves the loose object dir/file of From into every store of its
// format.
func (m *mover) loose(dir, file string) error {
	rel := filepath.Join(dir, file)
	src := filepath.Join(m.From, rel)
	name := dir + file
	placed, why := 0, ""
	for _, st := range m.Into {
		if st.HexLen != len(name) {
			continue // the other object format: not this store's object
		}
		// Proven with the store's own hash: its names are this long.
		to := filepath.Join(st.Dir, dir, file)
		if present(to) {
			placed++ // the store has it: theirs stays
			continue
		}
		ok, w, err := m.admit(st, rel, to, func(staged string) string { return gitdir.CheckLoose(staged, name) })
		if err != nil {
			return fmt.Errorf("move object %s into %s: %w", name, st.Dir, err)
		}
		if !ok {
			why = w
			break
		}
		placed++
	}
	switch {
	case why != "":
		m.Refuse(src, why)
	case placed == 0:
		m.Refuse(src, fmt.Sprintf("a %d-digit name, which no repository here uses", len(name)))
	default:
		_ = m.r.Remove(rel)
	}
	return nil
}

// pack moves the pack of From and its index into every store of its
// format.
func (m *mover) pack(ctx context.Context, name string) error {
	relPack := filepath.Join("pack", name)
	relIdx := strings.TrimSuffix(relPack, ".pack") + ".idx"
	pack, idx := filepath.Join(m.From, relPack), filepath.Join(m.From, relIdx)
	hexLen := len(packName().FindStringSubmatch(name)[1])
	ist, err := m.r.Lstat(relIdx)
	if err != nil || !ist.Mode().IsRegular() {
		if !m.KeepUnfinished {
			m.Refuse(pack, "a pack without its index")
		}
		return nil
	}
	if pst, err := m.r.Lstat(relPack); err == nil && (pst.Size() > m.MaxPack || ist.Size() > m.MaxPack) {
		why := fmt.Sprintf("larger than %s, so it was not verified (look at it before you copy it into your repository)", sizeText(m.MaxPack))
		m.Refuse(pack, why)
		m.Refuse(idx, "the index of a pack "+why)
		return nil
	}
	placed, why := 0, ""
	for _, st := range m.Into {
		if st.HexLen != hexLen {
			continue
		}
		to := filepath.Join(st.Dir, "pack", name)
		if present(to) && present(strings.TrimSuffix(to, ".pack")+".idx") {
			placed++
			continue
		}
		ok, w, err := m.admitPack(ctx, st, relPack, relIdx)
		if err != nil {
			return fmt.Errorf("move pack %s into %s: %w", name, st.Dir, err)
		}
		if !ok {
			why = w
			break
		}
		placed++
	}
	if why != "" || placed == 0 {
		if why == "" {
			why = "no repository here takes it"
		}
		m.Refuse(pack, why)
		m.Refuse(idx, "the index of a pack that does not verify")
		return nil
	}
	_ = m.r.Remove(relIdx)
	_ = m.r.Remove(relPack)
	return nil
}

func sizeText(n int64) string {
	if n >= 1<<30 && n%(1<<30) == 0 {
		return fmt.Sprintf("%d GiB", n>>30)
	}
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

func present(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

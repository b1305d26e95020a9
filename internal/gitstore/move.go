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
// needs.
package gitstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/sentinelhq/sentinel/internal/gitdir"
)

var packName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^pack-([0-9a-f]{40}|[0-9a-f]{64})\.pack$`)
})

// Store is an object store objects move into.
type Store struct {
	Dir string // the objects directory
	// HexLen is the length of its object names (40 for SHA-1, 64 for
	// SHA-256); 0 takes an object of either.
	HexLen int
}

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
}

// Run moves what From holds: each proven object into every store of Into
// that lacks it, then out of From. An error is a store that could not be
// written; what was not moved then stays in From.
func (m Move) Run(ctx context.Context) error {
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
			if err := m.loose(r, d.Name(), f.Name()); err != nil {
				errs = append(errs, err)
			}
		}
	}
	packs, _ := readDir(r, "pack")
	for _, pk := range packs {
		if !pk.Type().IsRegular() || !packName().MatchString(pk.Name()) {
			continue
		}
		if err := m.pack(ctx, r, pk.Name()); err != nil {
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

// loose moves the loose object dir/file of From.
func (m Move) loose(r *os.Root, dir, file string) error {
	rel := filepath.Join(dir, file)
	src := filepath.Join(m.From, rel)
	name := dir + file
	placed, why := 0, ""
	for _, st := range m.Into {
		if st.HexLen != 0 && st.HexLen != len(name) {
			continue
		}
		to := filepath.Join(st.Dir, dir, file)
		if present(to) {
			placed++ // the store has it: theirs stays
			continue
		}
		ok, w, err := st.admit(r, rel, to, func(staged string) string { return gitdir.CheckLoose(staged, name) })
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
		_ = r.Remove(rel)
	}
	return nil
}

// pack moves the pack of From and its index, the pack before its index.
func (m Move) pack(ctx context.Context, r *os.Root, name string) error {
	relPack := filepath.Join("pack", name)
	relIdx := strings.TrimSuffix(relPack, ".pack") + ".idx"
	pack, idx := filepath.Join(m.From, relPack), filepath.Join(m.From, relIdx)
	if st, err := r.Lstat(relIdx); err != nil || !st.Mode().IsRegular() {
		if !m.KeepUnfinished {
			m.Refuse(pack, "a pack without its index")
		}
		return nil
	}
	placed, why := 0, ""
	for _, st := range m.Into {
		to := filepath.Join(st.Dir, "pack", filepath.Base(pack))
		if present(to) && present(strings.TrimSuffix(to, ".pack")+".idx") {
			placed++
			continue
		}
		ok, w, err := st.admitPack(ctx, m.VerifyPack, r, relPack, relIdx)
		if err != nil {
			return fmt.Errorf("move pack %s into %s: %w", filepath.Base(pack), st.Dir, err)
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
	_ = r.Remove(relIdx)
	_ = r.Remove(relPack)
	return nil
}

// admit copies src (of r) into a private dir of the store, proves the
// copy with prove ("" when it is what it should be) and renames it to to.
func (st Store) admit(r *os.Root, src, to string, prove func(staged string) string) (ok bool, why string, err error) {
	stage, err := st.stage()
	if err != nil {
		return false, "", err
	}
	defer os.RemoveAll(stage)
	staged := filepath.Join(stage, filepath.Base(to))
	if err := copyFile(r, src, staged); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return true, "", nil // gone from the scratch dir since: nothing to move
		}
		return false, "unreadable: " + err.Error(), nil
	}
	if why := prove(staged); why != "" {
		return false, why, nil
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return false, "", err
	}
	if present(to) {
		return true, "", nil
	}
	return true, "", os.Rename(staged, to)
}

// admitPack is admit for a pack and its index: both copied, the pack
// verified against its index, the pack renamed in before its index.
func (st Store) admitPack(ctx context.Context, verify func(context.Context, Store, string) error, r *os.Root, pack, idx string) (ok bool, why string, err error) {
	stage, err := st.stage()
	if err != nil {
		return false, "", err
	}
	defer os.RemoveAll(stage)
	sp, si := filepath.Join(stage, filepath.Base(pack)), filepath.Join(stage, filepath.Base(idx))
	for _, c := range [][2]string{{pack, sp}, {idx, si}} {
		if err := copyFile(r, c[0], c[1]); err != nil {
			return false, "unreadable: " + err.Error(), nil
		}
	}
	if err := verify(ctx, st, si); err != nil {
		return false, "its objects do not match its index", nil
	}
	dir := filepath.Join(st.Dir, "pack")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, "", err
	}
	for _, c := range [][2]string{{sp, filepath.Join(dir, filepath.Base(pack))}, {si, filepath.Join(dir, filepath.Base(idx))}} {
		if present(c[1]) {
			continue
		}
		if err := os.Rename(c[0], c[1]); err != nil {
			return false, "", err
		}
	}
	return true, "", nil
}

// stage is a new private directory inside the store, on its file system
// (a rename from it is atomic); git ignores it, and the coder cannot
// reach it (the store is read-only inside the sandbox).
func (st Store) stage() (string, error) {
	return os.MkdirTemp(st.Dir, "tmp_sentinel_")
}

// copyFile copies the regular file src of r (no link followed out of r)
// to the new file dst, read-only as git makes its objects.
func copyFile(r *os.Root, src, dst string) error {
	in, err := r.OpenFile(src, os.O_RDONLY|oNonblock, 0) // a fifo swapped in does not block
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", src)
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o444)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func present(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

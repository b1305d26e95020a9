package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
)

// walkRoot is fs.WalkDir(r.FS(), ".", fn) without io/fs's rule that a
// path is UTF-8: a name on disk is bytes, and r.FS() refuses to list a
// directory whose name is not UTF-8 — everything under it would be left
// out of the checkpoint, so a coder's changes there would go unreported
// and could not be undone. fn is called as fs.WalkDir calls it, in
// lexical order (a directory that cannot be listed a second time, with
// the error; fs.SkipDir and fs.SkipAll as there). reopen, when set, hears
// a directory that cannot be listed first: when it says true (it made the
// directory listable), the listing is tried once more.
//
// The walk is linear in the entries: each directory is opened from its
// parent's handle by its one name, never by the whole path from the place
// (which os.Root opens element by element: depth² opens for a deep tree,
// 31-ipatk16), each entry is stat'ed by name from its directory's handle
// (an *entry), and a directory opened must be the one its parent's lstat
// saw (a link or another directory swapped in is unreadable, not listed).
// It holds one descriptor per level it is in. ctx ends it: a walk in
// progress returns ctx's error at its next entry.
func walkRoot(ctx context.Context, r *os.Root, fn fs.WalkDirFunc, reopen func(rel string, err error) bool, opened func(elements int)) error {
	w := walker{ctx: ctx, fn: fn, reopen: reopen, opened: opened}
	info, err := r.Stat(".")
	if err != nil {
		err = fn(".", nil, err)
	} else {
		err = w.visit(r, ".", ".", fs.FileInfoToDirEntry(info))
	}
	if errors.Is(err, fs.SkipDir) || errors.Is(err, fs.SkipAll) {
		return nil
	}
	return err
}

type walker struct {
	ctx    context.Context
	fn     fs.WalkDirFunc
	reopen func(string, error) bool
	opened func(elements int) // a test's count of the path elements opened or stat'ed
}

func (w *walker) count(elements int) {
	if w.opened != nil {
		w.opened(elements)
	}
}

// visit hears rel (name in parent; the place itself is parent ".") and,
// for a directory, walks what it holds.
func (w *walker) visit(parent *os.Root, name, rel string, d fs.DirEntry) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	if err := w.fn(rel, d, nil); err != nil || !d.IsDir() {
		if errors.Is(err, fs.SkipDir) && d.IsDir() {
			err = nil
		}
		return err
	}
	h, des, err := w.openList(parent, name)
	if err != nil && w.reopen != nil && w.reopen(rel, err) {
		h, des, err = w.openList(parent, name)
	}
	if h != nil && h != parent {
		defer h.Close()
	}
	if err != nil {
		if err = w.fn(rel, d, err); err != nil {
			if errors.Is(err, fs.SkipDir) {
				err = nil
			}
			return err
		}
	}
	for _, de := range des {
		if err := w.visit(h, de.Name(), path.Join(rel, de.Name()), de); err != nil {
			if errors.Is(err, fs.SkipDir) {
				break
			}
			return err
		}
	}
	return nil
}

// openList opens the directory name of parent (name "." is parent itself)
// by that one name and lists it, sorted by name. It refuses what is no
// longer the directory the lstat saw: a link swapped in is not followed.
func (w *walker) openList(parent *os.Root, name string) (*os.Root, []fs.DirEntry, error) {
	h := parent
	if name != "." {
		li, err := parent.Lstat(name)
		w.count(1)
		if err != nil {
			return nil, nil, err
		}
		if !li.IsDir() {
			return nil, nil, fmt.Errorf("%s: no longer a directory (%s)", name, li.Mode().Type())
		}
		if h, err = parent.OpenRoot(name); err != nil {
			w.count(1)
			return nil, nil, err
		}
		w.count(1)
		si, err := h.Stat(".")
		if err == nil && !os.SameFile(si, li) {
			err = fmt.Errorf("%s: replaced while it was recorded", name)
		}
		if err != nil {
			h.Close()
			return nil, nil, err
		}
	}
	f, err := h.Open(".")
	w.count(1)
	if err != nil {
		return h, nil, err
	}
	defer f.Close()
	des, err := f.ReadDir(-1)
	slices.SortFunc(des, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	out := make([]fs.DirEntry, len(des))
	for i, de := range des {
		out[i] = &entry{in: h, name: de.Name(), typ: de.Type(), w: w}
	}
	return h, out, err
}

// entry is a directory entry whose Info is an lstat by its one name from
// its directory's handle (os.File's is of the whole path: one element per
// level, and nothing past PATH_MAX).
type entry struct {
	in   *os.Root
	name string
	typ  fs.FileMode
	w    *walker
}

func (e *entry) Name() string      { return e.name }
func (e *entry) IsDir() bool       { return e.typ.IsDir() }
func (e *entry) Type() fs.FileMode { return e.typ }
func (e *entry) Info() (fs.FileInfo, error) {
	e.w.count(1)
	return e.in.Lstat(e.name)
}

// readlinkOf reads the link rel by its name from its directory's handle
// when d is the walk's entry, else through r by its whole path.
func readlinkOf(r *os.Root, rel string, d fs.DirEntry) (string, error) {
	if e, ok := d.(*entry); ok {
		e.w.count(1)
		return e.in.Readlink(e.name)
	}
	return r.Readlink(rel)
}

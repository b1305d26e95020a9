package mcpserver

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
)

// The file tools act on directories they hold open, never on path text
// (see reach). dirFS is one such held directory; a fileLayer opens the
// first one and renames between them. Two layers exist: fdLayer (unix:
// openat and friends on file descriptors, RENAME_NOREPLACE on Linux) and
// rootLayer (every platform, Windows included: Go's os.Root, which keeps
// every operation inside the directory it was opened on, through symlinks,
// junctions and `..` alike). Both refuse to pass through a symlink or
// other reparse point: a name in a held directory is only ever the entry
// itself.

// dirFS is an open directory. Every name is one component in it.
type dirFS interface {
	// Stat is the directory's own metadata.
	Stat() (fs.FileInfo, error)
	// Lstat is name's own metadata (a symlink is the link).
	Lstat(name string) (fs.FileInfo, error)
	// OpenDir opens the directory name ("." for this one), refusing a
	// symlink or anything else that is not a plain directory (errLinked).
	OpenDir(name string) (dirFS, error)
	// OpenFile opens name itself, refusing a symlink (errLinked).
	OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error)
	// Names lists the directory's entries.
	Names() ([]string, error)
	Readlink(name string) (string, error)
	Symlink(target, name string) error
	Mkdir(name string, perm fs.FileMode) error
	// Remove removes a file, a symlink or an empty directory.
	Remove(name string) error
	Close() error
}

// fileLayer opens held directories and renames between them.
type fileLayer interface {
	// OpenRoot opens the directory at the absolute path p (a configured
	// root or Sentinel's backups dir; p holds no symlink).
	OpenRoot(p string) (dirFS, error)
	// Rename moves oname in od to nname in nd; with noReplace it fails
	// rather than replace an existing nname where the platform can say
	// so (the caller checked first). Where the two cannot be renamed
	// between, it fails with an error isCrossDir recognises.
	Rename(od dirFS, oname string, nd dirFS, nname string, noReplace bool) error
	// Name is how the audit and tests tell the layers apart.
	Name() string
}

// errLinked is a name that is a symlink, a junction or another reparse
// point, or that changed after it was checked.
var errLinked = errors.New("is a symlink or reparse point, or changed after it was checked")

// errNotDir is a name that is not a directory.
var errNotDir = errors.New("not a directory")

// errCrossDir is a rename the layer cannot do in one step.
var errCrossDir = errors.New("cannot rename across these directories in one step")

// isPlainDir says whether fi is a directory and nothing more (not a
// symlink, junction, mount point or other reparse point).
func isPlainDir(fi fs.FileInfo) bool { return fi.Mode().Type() == fs.ModeDir }

// rootLayer is the portable layer on os.Root.
type rootLayer struct{}

func (rootLayer) Name() string { return "os.Root" }

func (rootLayer) OpenRoot(p string) (dirFS, error) {
	r, err := os.OpenRoot(p)
	if err != nil {
		return nil, err
	}
	top := &rootTop{path: p, r: r}
	top.open.Add(1)
	return &rootDir{r: r, top: top, rel: "."}, nil
}

// rootDir is a directory held as an os.Root. top is the root first opened
// (a configured root) and rel the path from it, for renames between
// directories under it, which os.Root does only within one root.
type rootDir struct {
	r   *os.Root
	top *rootTop
	rel string
}

// rootTop is the first root of a walk, open while any directory reached
// from it is.
type rootTop struct {
	path string
	r    *os.Root
	open atomic.Int32
}

func (d *rootDir) Stat() (fs.FileInfo, error)             { return d.r.Stat(".") }
func (d *rootDir) Lstat(name string) (fs.FileInfo, error) { return d.r.Lstat(name) }
func (d *rootDir) Readlink(name string) (string, error)   { return d.r.Readlink(name) }
func (d *rootDir) Symlink(target, name string) error      { return d.r.Symlink(target, name) }
func (d *rootDir) Mkdir(name string, perm fs.FileMode) error {
	return d.r.Mkdir(name, perm)
}
func (d *rootDir) Remove(name string) error { return d.r.Remove(name) }

// Close closes this directory; the top one stays open while a directory
// reached from it may still rename through it.
func (d *rootDir) Close() error {
	if d.r == d.top.r {
		d.r = nil
	} else {
		d.r.Close()
	}
	if d.top.open.Add(-1) == 0 {
		return d.top.r.Close()
	}
	return nil
}

func (d *rootDir) Names() ([]string, error) {
	f, err := d.r.Open(".")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}

// OpenDir checks what name is without following it, opens it, and checks
// that what was opened is what was checked: os.Root would follow a symlink
// that stays inside, and a swap between the two steps is caught by the
// identity comparison.
func (d *rootDir) OpenDir(name string) (dirFS, error) {
	fi, err := d.r.Lstat(name)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&(fs.ModeSymlink|fs.ModeIrregular) != 0 {
		return nil, errLinked
	}
	if !isPlainDir(fi) {
		return nil, errNotDir
	}
	sub, err := d.r.OpenRoot(name)
	if err != nil {
		return nil, err
	}
	got, err := sub.Stat(".")
	if err != nil || !os.SameFile(fi, got) {
		sub.Close()
		if err != nil {
			return nil, err
		}
		return nil, errLinked
	}
	d.top.open.Add(1)
	return &rootDir{r: sub, top: d.top, rel: filepath.Join(d.rel, name)}, nil
}

// OpenFile opens name and checks, after the open, that name is still a
// plain entry and the very file opened: a symlink (even one whose target
// stays inside) is refused.
func (d *rootDir) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	if fi, err := d.r.Lstat(name); err == nil && fi.Mode()&(fs.ModeSymlink|fs.ModeIrregular) != 0 {
		return nil, errLinked
	}
	f, err := d.r.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	got, err1 := f.Stat()
	now, err2 := d.r.Lstat(name)
	if err1 != nil || err2 != nil || now.Mode()&(fs.ModeSymlink|fs.ModeIrregular) != 0 || !os.SameFile(got, now) {
		f.Close()
		return nil, errLinked
	}
	return f, nil
}

// Rename renames within the one configured root both directories were
// reached from: in one held directory directly, else by their paths from
// the root, which os.Root resolves again without leaving it (so a
// component swapped between the walk and the rename could redirect the
// rename within the root, never outside it). Directories under different
// roots (the backups dir) cannot.
func (rootLayer) Rename(od dirFS, oname string, nd dirFS, nname string, noReplace bool) error {
	o, ok1 := od.(*rootDir)
	n, ok2 := nd.(*rootDir)
	if !ok1 || !ok2 || o.top.path != n.top.path {
		return errCrossDir
	}
	if noReplace {
		if _, err := n.r.Lstat(nname); err == nil {
			return fs.ErrExist
		}
	}
	if o.rel == n.rel {
		return o.r.Rename(oname, nname)
	}
	return o.top.r.Rename(filepath.Join(o.rel, oname), filepath.Join(n.rel, nname))
}

// isCrossDir says whether a rename failed because it would cross file
// systems or directories the layer cannot rename between.
func isCrossDir(err error) bool { return errors.Is(err, errCrossDir) || isEXDEV(err) }

// ident is what a file is where the platform says it plainly (a device
// and inode); elsewhere os.SameFile compares.
type ident struct{ dev, ino uint64 }

// sameFile says whether a and b are the same file.
func sameFile(a, b fs.FileInfo) bool {
	ia, ok1 := identOf(a)
	ib, ok2 := identOf(b)
	if ok1 && ok2 {
		return ia == ib
	}
	return os.SameFile(a, b)
}

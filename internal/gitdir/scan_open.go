package gitdir

import (
	"errors"
	"os"
	"path/filepath"
)

// ScanOption changes how ScanTree walks.
type ScanOption func(*scanOptions)

type scanOptions struct {
	// open, when set, is asked about each directory under the root the
	// walk cannot list; one it does not keep is opened for listing.
	open func(dir string) (keep bool)
}

// OpenUnlisted makes ScanTree open a directory it cannot list (u+rx, for
// the listing only, its mode put back) unless keep says it is to be left
// as it is (the person's own unlistable directories, listed at the start).
// A coder running as the person's user makes a directory unlistable
// (mkdir -m 311) and builds a repository inside, which git finds by name
// with search permission alone: the sweep that looks for new git dirs
// must see into it. Directories of another user stay unlisted.
func OpenUnlisted(keep func(dir string) bool) ScanOption {
	return func(o *scanOptions) { o.open = keep }
}

// listOpened lists dir (under root) by giving it u+rx through an os.Root
// at root (no link followed out of the place), and puts its mode back.
func (o scanOptions) listOpened(root, dir string) ([]os.DirEntry, error) {
	rel, err := filepath.Rel(root, dir)
	if err != nil {
		return nil, err
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	fi, err := r.Lstat(rel)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, errors.New(dir + " is no longer a directory")
	}
	mode := fi.Mode() & (os.ModePerm | os.ModeSetuid | os.ModeSetgid | os.ModeSticky)
	if err := r.Chmod(rel, mode|0o500); err != nil {
		return nil, err
	}
	defer func() { _ = r.Chmod(rel, mode) }()
	return readDir(dir)
}

package checkpoint

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// walkRoot is fs.WalkDir(r.FS(), ".", fn) without io/fs's rule that a
// path is UTF-8: a name on disk is bytes, and r.FS() refuses to list a
// directory whose name is not UTF-8 — everything under it would be left
// out of the checkpoint, so a coder's changes there would go unreported
// and could not be undone. Each directory is listed through r, as r.FS()
// does, in lexical order; fn is called as fs.WalkDir calls it (a
// directory that cannot be listed a second time, with the error;
// fs.SkipDir and fs.SkipAll as there). reopen, when set, hears a
// directory that cannot be listed first: when it says true (it made the
// directory listable), the listing is tried once more.
func walkRoot(r *os.Root, fn fs.WalkDirFunc, reopen func(rel string, err error) bool) error {
	info, err := r.Stat(".")
	if err != nil {
		err = fn(".", nil, err)
	} else {
		err = walkRootDir(r, ".", fs.FileInfoToDirEntry(info), fn, reopen)
	}
	if errors.Is(err, fs.SkipDir) || errors.Is(err, fs.SkipAll) {
		return nil
	}
	return err
}

func walkRootDir(r *os.Root, rel string, d fs.DirEntry, fn fs.WalkDirFunc, reopen func(string, error) bool) error {
	if err := fn(rel, d, nil); err != nil || !d.IsDir() {
		if errors.Is(err, fs.SkipDir) && d.IsDir() {
			err = nil
		}
		return err
	}
	des, err := readDirIn(r, rel)
	if err != nil && reopen != nil && reopen(rel, err) {
		des, err = readDirIn(r, rel)
	}
	if err != nil {
		if err = fn(rel, d, err); err != nil {
			if errors.Is(err, fs.SkipDir) {
				err = nil
			}
			return err
		}
	}
	for _, de := range des {
		if err := walkRootDir(r, path.Join(rel, de.Name()), de, fn, reopen); err != nil {
			if errors.Is(err, fs.SkipDir) {
				break
			}
			return err
		}
	}
	return nil
}

// readDirIn lists the slash-separated directory rel of r, sorted by name.
func readDirIn(r *os.Root, rel string) ([]fs.DirEntry, error) {
	f, err := r.Open(filepath.FromSlash(rel))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	des, err := f.ReadDir(-1)
	slices.SortFunc(des, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return des, err
}

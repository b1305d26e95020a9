package checkpoint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// reopenedDirs are the directories a checkpoint opened to list them
// (Options.Listable), with the modes to put back, in the order opened.
type reopenedDirs []struct {
	rel  string
	mode fs.FileMode
}

// reopener is the walk's hook for a directory it cannot list: one the run
// made unlistable (o.Listable had it listed, or did not have it), or any
// in the first record (o.OpenUnlistable), is given
// u+rwx and listed again. The directory is looked at without following a
// link first; os.Root keeps the chmod in the place whatever is swapped in.
func (o Options) reopener(r *os.Root) (*reopenedDirs, func(string, error) bool) {
	done := &reopenedDirs{}
	if o.Listable == nil && !o.OpenUnlistable {
		return done, nil
	}
	return done, func(rel string, err error) bool {
		if !errors.Is(err, fs.ErrPermission) || rel == "." {
			return false
		}
		if o.Listable != nil {
			if was, ok := o.Listable.Get(rel); ok && was.Kind != KindDir {
				return false // unlistable when first recorded (another user's), or not a directory then
			}
		}
		name := filepath.FromSlash(rel)
		fi, err := r.Lstat(name)
		if err != nil || !fi.IsDir() {
			return false
		}
		mode := fi.Mode() & modeBits
		if r.Chmod(name, mode|0o700) != nil {
			return false // not this user's: it stays one uncovered entry
		}
		*done = append(*done, struct {
			rel  string
			mode fs.FileMode
		}{rel, mode})
		return true
	}
}

// putBack gives each directory opened for the checkpoint its mode back,
// deepest first.
func (d *reopenedDirs) putBack(r *os.Root) error {
	var errs []error
	for i := len(*d) - 1; i >= 0; i-- {
		e := (*d)[i]
		if err := r.Chmod(filepath.FromSlash(e.rel), e.mode); err != nil {
			errs = append(errs, fmt.Errorf("put back the mode %04o of %s, opened to record what it holds: %w", uint32(e.mode.Perm()), e.rel, err))
		}
	}
	return errors.Join(errs...)
}

// openTop opens the place itself when the run made it unlistable (chmod
// 311 .: no record of it could be taken at all) and o.Listable had it as
// a directory; putBack gives it its mode back.
// opened is the mode it had (0 when it was not opened).
func (o Options) openTop(root string) (putBack func() error, opened fs.FileMode, err error) {
	none := func() error { return nil }
	if o.Listable == nil || o.Listable.Top == nil {
		return none, 0, nil
	}
	return openDirForUndo(root)
}

// openDirForUndo gives the directory at path u+rwx when it lacks any of
// them; putBack gives it its mode back.
func openDirForUndo(path string) (putBack func() error, opened fs.FileMode, err error) {
	none := func() error { return nil }
	fi, err := os.Lstat(path)
	if err != nil || !fi.IsDir() || fi.Mode()&0o700 == 0o700 {
		return none, 0, nil // the open says what is wrong
	}
	mode := fi.Mode() & modeBits
	if err := os.Chmod(path, mode|0o700); err != nil {
		return nil, 0, fmt.Errorf("the run took the place's own permissions away (mode %04o) and it could not be opened: %w", uint32(mode.Perm()), err)
	}
	return func() error {
		if err := os.Chmod(path, mode); err != nil {
			return fmt.Errorf("put back the place's mode %04o, opened to record it: %w", uint32(mode.Perm()), err)
		}
		return nil
	}, mode | fs.ModeDir, nil
}

// openAbove opens (u+rwx) each directory above a step that this user
// cannot list or enter now and that is no step itself: the person's own
// unlistable directory, which the first record opened to see into
// (Options.OpenUnlistable) and which the run left as it was, while what
// is inside changed. It returns them, outermost first, with the modes
// to put back once the steps are done.
func openAbove(r *os.Root, steps []Step, at func(string, func(*os.Root, string) error) (bool, error)) reopenedDirs {
	stepped := make(map[string]bool, len(steps))
	for _, st := range steps {
		stepped[st.Path] = true
	}
	var out reopenedDirs
	seen := map[string]bool{}
	for _, st := range steps {
		for i := 0; i < len(st.Path); i++ {
			if st.Path[i] != '/' {
				continue
			}
			dir := st.Path[:i]
			if stepped[dir] || seen[dir] {
				continue
			}
			seen[dir] = true
			fi, err := r.Lstat(filepath.FromSlash(dir))
			if err != nil || !fi.IsDir() || fi.Mode()&0o700 == 0o700 {
				continue
			}
			mode := fi.Mode() & modeBits
			if ok, err := at(dir, func(pr *os.Root, base string) error { return chmodDir(pr, base, mode|0o700) }); ok && err == nil {
				out = append(out, struct {
					rel  string
					mode fs.FileMode
				}{dir, mode})
			}
		}
	}
	return out
}

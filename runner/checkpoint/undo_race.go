package checkpoint

import (
	"errors"
	"io/fs"
	"os"
)

// Undo looks at the place (its own checkpoint of it, now) and plans from
// that, then writes: a path the person changes in between (an editor
// saving, a build writing, while undo runs on a large place) would be
// overwritten or removed with nothing said, and the undo's own checkpoint,
// taken before the change, could not bring it back. So each step looks at
// its path again just before it writes; a path that is no longer as the
// plan saw it is left as it is and told (Applied.Raced), as a path the
// person changed after the run ended is.

// errRaced: the path changed after undo looked at the place.
var errRaced = errors.New("changed while undo ran")

// racedWhy is what Applied.Raced says of such a path.
const racedWhy = "changed while undo ran (after it looked at the place): kept as it is"

// stillAsPlanned says whether the name base in pr is still what the plan
// saw there (now; nil: nothing). A file is compared by size, mtime and
// identity, not ctime: undo's own rename over another name of a file the
// run linked changes that file's ctime, nothing else.
func stillAsPlanned(pr *os.Root, base string, now *Entry) error {
	fi, err := pr.Lstat(base)
	switch {
	case now == nil && errors.Is(err, fs.ErrNotExist):
		return nil
	case errors.Is(err, fs.ErrNotExist):
		return errRaced
	case err != nil:
		return err
	case now == nil:
		return errRaced
	}
	switch now.Kind {
	case KindFile:
		e := stampOf(base, fi)
		if !fi.Mode().IsRegular() || e.Size != now.Size || e.MTime != now.MTime || e.Ino != now.Ino || e.Dev != now.Dev {
			return errRaced
		}
	case KindSymlink:
		if fi.Mode()&fs.ModeSymlink == 0 {
			return errRaced
		}
		if t, err := pr.Readlink(base); err != nil || t != now.Target {
			return errRaced
		}
	case KindDir:
		if !fi.IsDir() {
			return errRaced
		}
	}
	return nil
}

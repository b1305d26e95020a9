package checkpoint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/sentinelhq/sentinel/internal/nofollow"
)

// stepDir is the directory that holds the slash-separated p in the place,
// as a root of its own, and p's last element: every change of undo is
// made from it, to that one name. The directory is opened from the place
// with one openat2 that follows no link in any element and never leaves
// the place (as the checkpoint's reads are), so a directory swapped for a
// link after linkAbove looked is refused, not written through to
// elsewhere in the place. Where there is no openat2 (another system, a
// kernel before 5.6) it is opened an element at a time (openRootNoLinks).
// done closes it. hook, when set, runs after the link check and before
// the open (tests swap a directory for a link there).
func stepDir(r *os.Root, dir *os.File, p string, hook func(p string)) (pr *os.Root, base string, done func(), err error) {
	if err := linkAbove(r, p); err != nil {
		return nil, "", nil, err
	}
	if hook != nil {
		hook(p)
	}
	d, base := path.Split(p)
	if d = strings.TrimSuffix(d, "/"); d == "" {
		return r, base, func() {}, nil
	}
	f, ok, err := openDirBeneath(r, dir, d)
	if !ok {
		pr, err = openRootNoLinks(r, d)
	} else if err == nil {
		pr, err = os.OpenRoot(fmt.Sprintf("/proc/self/fd/%d", f.Fd()))
		f.Close()
	}
	if err != nil {
		if lerr := linkAbove(r, p); lerr != nil {
			return nil, "", nil, lerr // swapped since it was checked: say what it is now
		}
		return nil, "", nil, err
	}
	return pr, base, func() { pr.Close() }, nil
}

// chmodDir sets the mode of the directory name in r, not following a link.
// One this user cannot open (a run took its read bit away) is changed by
// name once it is seen to be a directory: os.Root keeps that in r.
func chmodDir(r *os.Root, name string, mode os.FileMode) error {
	return chmodDirACL(r, name, mode, nil, nil)
}

// chmodDirACL is chmodDir that also gives the directory the default ACL
// acl points to ("": none); nil leaves its ACL as it is. A directory
// opened by name only (no read bit) keeps its ACL: the mode is the part
// undo cannot do without.
func chmodDirACL(r *os.Root, name string, mode os.FileMode, acl, xattrs *string) error {
	f, err := nofollow.OpenDirIn(r, name)
	if errors.Is(err, fs.ErrPermission) {
		if fi, lerr := r.Lstat(name); lerr == nil && fi.IsDir() {
			return r.Chmod(name, mode)
		}
	}
	if err != nil {
		return err
	}
	defer f.Close()
	if acl != nil {
		if err := setDefaultACL(f, *acl); err != nil {
			return err
		}
	}
	if xattrs != nil && *xattrs != xattrsOfFile(f) {
		if err := setXAttrs(f, *xattrs); err != nil {
			return err
		}
	}
	return f.Chmod(mode)
}

// openRootNoLinks opens the slash-separated directory d of r as a root, an
// element at a time: each element is opened without following a link and
// the root made of it must be that very directory, so a link anywhere on
// the way (swapped in at any moment) is refused.
func openRootNoLinks(r *os.Root, d string) (*os.Root, error) {
	cur := r
	for _, el := range strings.Split(d, "/") {
		f, err := nofollow.OpenDirIn(cur, el)
		if err != nil {
			if cur != r {
				cur.Close()
			}
			return nil, err
		}
		next, err := cur.OpenRoot(el)
		if cur != r {
			cur.Close()
		}
		if err == nil {
			err = sameDir(f, next)
		}
		f.Close()
		if err != nil {
			if next != nil {
				next.Close()
			}
			return nil, err
		}
		cur = next
	}
	return cur, nil
}

// sameDir fails unless the root r is the directory f.
func sameDir(f *os.File, r *os.Root) error {
	a, err := f.Stat()
	if err != nil {
		return err
	}
	b, err := r.Stat(".")
	if err != nil {
		return err
	}
	if !os.SameFile(a, b) {
		return fmt.Errorf("%s changed while it was opened", f.Name())
	}
	return nil
}

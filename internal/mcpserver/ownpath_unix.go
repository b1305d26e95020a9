//go:build unix

package mcpserver

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// Opening a file of the server's own (config, audit journal, [log] file)
// by a path no one else could have steered. O_NOFOLLOW guards only a
// path's last element: with a symlink of sentinel-ci's in a sticky shared
// folder as a PARENT (/tmp/shared/link/mcp.log, link -> /root/dir), root's
// server made and wrote /root/dir/mcp.log (review #31, MED 3). So the
// parent is walked one element at a time from "/" with openat(O_NOFOLLOW),
// following only a symlink that root or you own (like /home -> /data/home
// or macOS's /tmp -> /private/tmp); the directory's owner and mode are
// checked on that handle, and the file opened relative to it — the check
// and the use are the same object.

// errUntrustedLink is returned for a symlink another user owns on a path.
var errUntrustedLink = errors.New("symlink owned by another user")

// openDirWalked opens directory dir without following any symlink that is
// not root's or yours.
func openDirWalked(dir string) (*os.File, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	fd, err := unix.Open("/", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: "/", Err: err}
	}
	at := "/"
	for _, name := range strings.Split(abs, "/") {
		if name == "" {
			continue
		}
		next, err := openatRetry(fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			if lerr := trustedLinkAt(fd, name, filepath.Join(at, name)); lerr != nil {
				unix.Close(fd)
				if errors.Is(lerr, errUntrustedLink) {
					return nil, lerr
				}
				return nil, &os.PathError{Op: "open", Path: filepath.Join(at, name), Err: err}
			}
			// root's or your link: followed (its target was chosen by one of you).
			next, err = openatRetry(fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		}
		unix.Close(fd)
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: filepath.Join(at, name), Err: err}
		}
		fd, at = next, filepath.Join(at, name)
	}
	return os.NewFile(uintptr(fd), abs), nil
}

// trustedLinkAt is nil when name in directory fd is a symlink that root or
// you own, errUntrustedLink (wrapped) for another user's symlink, and
// another error when it is no symlink.
func trustedLinkAt(fd int, name, p string) error {
	var st unix.Stat_t
	if err := unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFLNK {
		return errors.New("not a symlink")
	}
	if !trustedUID(int(st.Uid)) {
		return fmt.Errorf("%s is a %w (uid %d), not yours or root's: it could point anywhere", p, errUntrustedLink, st.Uid)
	}
	return nil
}

func openatRetry(fd int, name string, flag int, perm uint32) (int, error) {
	for {
		n, err := unix.Openat(fd, name, flag, perm)
		if err != unix.EINTR {
			return n, err
		}
	}
}

// openOwnedIn opens path's last element with flag (never through a
// symlink) relative to its directory, walked by openDirWalked and
// checked as opened; what names the file in errors. dir is closed.
func openOwnedIn(path string, flag int, what string) (*os.File, error) {
	d, err := openDirWalked(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	defer d.Close()
	di, err := d.Stat()
	if err != nil {
		return nil, err
	}
	if err := ownedHere(filepath.Dir(path), di, what+"'s directory"); err != nil {
		return nil, err
	}
	fd, err := openatRetry(int(d.Fd()), filepath.Base(path), flag|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}

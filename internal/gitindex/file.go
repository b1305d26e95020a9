package gitindex

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/nofollow"
)

// MaxBytes bounds a git index Sentinel reads (a 500k-file index is about
// 50 MB).
const MaxBytes = 1 << 30

// Read reads gitDir/index, which a command Sentinel ran can replace: a
// link, a fifo or a device is refused, not followed or waited on, and a
// file past MaxBytes is refused.
func Read(gitDir string) ([]byte, error) {
	r, err := os.OpenRoot(gitDir)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	f, err := nofollow.OpenIn(r, "index", os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", filepath.Join(gitDir, "index"))
	}
	if st.Size() > MaxBytes {
		return nil, fmt.Errorf("%s is larger than %d bytes", filepath.Join(gitDir, "index"), MaxBytes)
	}
	return io.ReadAll(io.LimitReader(f, MaxBytes+1))
}

// ErrLocked is an index a git command holds (its index.lock exists);
// ErrChanged an index that changed from what the caller read.
var (
	ErrLocked  = errors.New("a git command is working on this repository")
	ErrChanged = errors.New("the git index changed while Sentinel read it")
)

// Replace writes b as gitDir's index, atomically and under git's own
// index.lock (as git writes it: the new index is the lock file, renamed
// over the old one), unless the index changed from was since it was
// read (ErrChanged); an empty b removes the index. While a git command
// holds the lock it refuses (ErrLocked, with the lock's path).
func Replace(gitDir string, was, b []byte) error {
	path := filepath.Join(gitDir, "index")
	lockPath := path + ".lock"
	lock, err := os.OpenFile(lockPath, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%w (%s exists)", ErrLocked, lockPath)
	}
	if err != nil {
		return err
	}
	renamed := false
	defer func() {
		if !renamed {
			os.Remove(lockPath)
		}
	}()
	if now, err := Read(gitDir); (err == nil || errors.Is(err, fs.ErrNotExist)) && !bytes.Equal(now, was) {
		lock.Close()
		return ErrChanged
	}
	if len(b) == 0 {
		lock.Close()
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	if st, err := os.Stat(path); err == nil {
		_ = lock.Chmod(st.Mode().Perm())
	}
	if _, err := lock.Write(b); err != nil {
		lock.Close()
		return err
	}
	if err := lock.Close(); err != nil {
		return err
	}
	if err := os.Rename(lockPath, path); err != nil {
		return err
	}
	renamed = true
	return nil
}

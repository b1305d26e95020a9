package runner

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path"
	"strings"

	"github.com/sentinelhq/sentinel/internal/nofollow"
)

// Writing where a coder may have planted links. Everything here goes
// through an os.Root, so no name can lead outside the directory it was
// opened on, and creates its temp file exclusively without following a
// link: a symlink planted at a temp name, or at the target, is never
// written through.

// tempName is a fresh, unguessable temp name beside name (slash-separated).
func tempName(name string) string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	dir, base := path.Split(name)
	return dir + "." + base + ".sentinel-" + hex.EncodeToString(b[:]) + ".tmp"
}

// noFollowRead opens name in r for reading, refusing a symlink or anything
// but a regular file.
func noFollowRead(r *os.Root, name string) ([]byte, os.FileInfo, error) {
	f, err := nofollow.OpenIn(r, name, os.O_RDONLY, 0)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("%s is not a regular file", name)
	}
	b, err := io.ReadAll(f)
	return b, st, err
}

// replaceIn atomically replaces name in r with data at exactly mode perm
// (not masked by the umask): an exclusive, no-follow temp file tmp (from
// tempName) is written and renamed over name. A name that is now a symlink
// or a directory is refused, not replaced.
func replaceIn(r *os.Root, name, tmp string, data []byte, perm os.FileMode) error {
	f, err := nofollow.OpenIn(r, tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Chmod(perm)
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		if st, err := r.Lstat(name); err == nil && !st.Mode().IsRegular() {
			werr = fmt.Errorf("%s is not a regular file (a symlink or a directory); it was not replaced", name)
		}
	}
	if werr == nil {
		werr = r.Rename(tmp, name)
	}
	if werr != nil {
		_ = r.Remove(tmp)
	}
	return werr
}

// writeFileIn atomically replaces dir/name (name has no slash).
func writeFileIn(dir, name string, data []byte, perm os.FileMode) error {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer r.Close()
	return replaceIn(r, name, tempName(name), data, perm)
}

// readFileIn reads dir/name without following a symlink at name.
func readFileIn(dir, name string) ([]byte, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	b, _, err := noFollowRead(r, name)
	return b, err
}

// realParents checks every directory above name (slash-separated, relative
// to r) and refuses any that is a symlink or not a directory. With create,
// missing ones are made (mode 0755, as the umask allows).
func realParents(r *os.Root, name string, create bool) error {
	parts := strings.Split(name, "/")
	dir := ""
	for _, part := range parts[:len(parts)-1] {
		dir = path.Join(dir, part)
		st, err := r.Lstat(dir)
		switch {
		case os.IsNotExist(err) && create:
			if err := r.Mkdir(dir, 0o755); err != nil {
				return err
			}
			continue
		case err != nil:
			return err
		case st.Mode()&os.ModeSymlink != 0:
			return fmt.Errorf("refusing to write %s: %s is a symlink", name, dir)
		case !st.IsDir():
			return fmt.Errorf("refusing to write %s: %s is not a directory", name, dir)
		}
	}
	return nil
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

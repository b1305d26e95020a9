//go:build unix

package sudoedit

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// rootOnly refuses path unless it and every directory above it are root's
// and writable by no one else (a sticky /tmp-like directory is not).
func rootOnly(path string) error {
	for p := path; ; p = filepath.Dir(p) {
		fi, err := os.Lstat(p)
		if err != nil {
			return fmt.Errorf("sudo-helper config %s: %v", path, err)
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok {
			return fmt.Errorf("sudo-helper config %s: cannot tell its owner", path)
		}
		switch {
		case fi.Mode()&os.ModeSymlink != 0:
			return fmt.Errorf("sudo-helper config %s: %s is a symlink; give the real path", path, p)
		case st.Uid != 0:
			return fmt.Errorf("sudo-helper config %s: %s belongs to uid %d; it must be root's (chown root:root)", path, p, st.Uid)
		case fi.Mode().Perm()&0o022 != 0 && !(fi.IsDir() && fi.Mode()&os.ModeSticky != 0):
			// A sticky root directory (/tmp) lets no one replace root's
			// entries in it.
			return fmt.Errorf("sudo-helper config %s: %s is writable by group or others; chmod go-w it", path, p)
		}
		if p == filepath.Dir(p) {
			return nil
		}
	}
}

//go:build unix

package hostbin

import (
	"fmt"
	"os"
	"syscall"
)

// owned refuses p when someone other than root or the running user owns it
// or may write it.
func owned(p string) error {
	st, err := os.Stat(p)
	if err != nil {
		return err
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Errorf("cannot read the owner of %s", p)
	}
	if uid := int(sys.Uid); uid != 0 && uid != os.Geteuid() {
		return fmt.Errorf("%s belongs to uid %d, not root or you", p, uid)
	}
	// A sticky directory (/tmp) lets others add names, not replace ours.
	if st.Mode().Perm()&0o022 != 0 && !(st.IsDir() && st.Mode()&os.ModeSticky != 0) {
		return fmt.Errorf("%s is writable by others (mode %v)", p, st.Mode().Perm())
	}
	return nil
}

// fallback is never used where the system has bin directories.
func fallback(string) (string, bool) { return "", false }

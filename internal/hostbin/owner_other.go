//go:build !unix

package hostbin

import (
	"os"
	"os/exec"
)

// owned, where the file system has no owners Sentinel can read, only
// checks that p exists; such a system has no sandbox either.
func owned(p string) error {
	_, err := os.Stat(p)
	return err
}

// fallback finds name on PATH where there are no system bin directories
// to look in (Windows); Sentinel has no sandbox there to run before.
func fallback(name string) (string, bool) {
	p, err := exec.LookPath(name)
	return p, err == nil
}

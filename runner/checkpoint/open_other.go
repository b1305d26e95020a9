//go:build !linux

package checkpoint

import "os"

// openIn opens the slash-separated rel under the place for reading, an
// element at a time through r, following no link (openNoLinks).
func openIn(r *os.Root, _ *os.File, rel string, flag int) (*os.File, error) {
	return openNoLinks(r, rel, flag)
}

// openBeneath is Linux's openat2; elsewhere the caller falls back.
func openBeneath(*os.Root, *os.File, string, int) (*os.File, bool, error) {
	return nil, false, nil
}

// openDirBeneath is Linux's openat2; elsewhere the caller falls back.
func openDirBeneath(*os.Root, *os.File, string) (*os.File, bool, error) {
	return nil, false, nil
}

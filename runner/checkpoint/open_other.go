//go:build !linux

package checkpoint

import (
	"os"
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/nofollow"
)

// openIn opens the slash-separated rel under the place for reading through
// r, which keeps every element in the place, refusing a link at the last.
func openIn(r *os.Root, _ *os.File, rel string, flag int) (*os.File, error) {
	return nofollow.OpenIn(r, filepath.FromSlash(rel), flag, 0)
}

// openBeneath is Linux's openat2; elsewhere the caller falls back.
func openBeneath(*os.Root, *os.File, string, int) (*os.File, bool, error) {
	return nil, false, nil
}

// openDirBeneath is Linux's openat2; elsewhere the caller falls back.
func openDirBeneath(*os.Root, *os.File, string) (*os.File, bool, error) {
	return nil, false, nil
}

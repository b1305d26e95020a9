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

package runner

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/nofollow"
)

// maxIndexBytes bounds a git index Sentinel reads (a 500k-file index is
// about 50 MB).
const maxIndexBytes = 1 << 30

// readGitIndex reads gitDir/index, which a coder in place can replace: a
// link, a fifo or a device is refused, not followed or waited on, and a
// file past maxIndexBytes is refused.
func readGitIndex(gitDir string) ([]byte, error) {
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
	if st.Size() > maxIndexBytes {
		return nil, fmt.Errorf("%s is larger than %d bytes", filepath.Join(gitDir, "index"), maxIndexBytes)
	}
	return io.ReadAll(io.LimitReader(f, maxIndexBytes+1))
}

// copyGitIndex writes gitDir/index, read as readGitIndex does, to dst.
func copyGitIndex(gitDir, dst string) error {
	b, err := readGitIndex(gitDir)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o600)
}

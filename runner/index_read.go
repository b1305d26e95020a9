package runner

import (
	"os"

	"github.com/sentinelhq/sentinel/internal/gitindex"
)

// readGitIndex reads gitDir/index as gitindex.Read does (a link, a
// fifo, a device or a file past its bound refused).
func readGitIndex(gitDir string) ([]byte, error) { return gitindex.Read(gitDir) }

// copyGitIndex writes gitDir/index, read as readGitIndex does, to dst.
func copyGitIndex(gitDir, dst string) error {
	b, err := readGitIndex(gitDir)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o600)
}

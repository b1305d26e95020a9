package mcpserver

import (
	"os"

	"github.com/sentinelhq/sentinel/internal/filestamp"
)

// fileID is a file's identity (device, inode): what a git dir stays when
// a command renames a directory above it. Where the system gives none,
// the sweep knows git dirs by path.
type fileID = filestamp.ID

// idOf is p's identity, not following p itself when it is a link.
func idOf(p string) (fileID, error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return fileID{}, err
	}
	return filestamp.IDOf(fi)
}

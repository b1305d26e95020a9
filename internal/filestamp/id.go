package filestamp

import (
	"errors"
	"os"
)

// ID is a file's identity: its device and inode. A directory renamed, or
// one of its parents, keeps it; a new file does not share it.
type ID struct{ Dev, Ino uint64 }

// ErrNoID is a FileInfo that carries no identity (this system gives none).
var ErrNoID = errors.New("no file identity on this system")

// IDOf is fi's identity.
func IDOf(fi os.FileInfo) (ID, error) {
	s, ok := Of(fi)
	if !ok {
		return ID{}, ErrNoID
	}
	return ID{s.Dev, s.Ino}, nil
}

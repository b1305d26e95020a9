package placeflags

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
)

// ReadInPlace is the regular file p (slash-separated) of the place at
// root as it is now, read never through a link out of it; nil when it is
// not a regular file or cannot be read whole within max. It opens without
// blocking and checks the file's type before reading, so a FIFO a coder's
// background process swapped in cannot hang the reader (and whatever
// lock it holds).
func ReadInPlace(root, p string, max int64) []byte {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil
	}
	defer r.Close()
	f, err := r.OpenFile(filepath.FromSlash(p), os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil || int64(len(b)) > max {
		return nil
	}
	return b
}

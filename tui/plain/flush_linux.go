package plain

import (
	"os"

	"golang.org/x/sys/unix"
)

// flushInput drops what was typed at the terminal f and not read yet.
func flushInput(f *os.File) { _ = unix.IoctlSetInt(int(f.Fd()), unix.TCFLSH, unix.TCIFLUSH) }

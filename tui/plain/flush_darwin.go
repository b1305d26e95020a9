package plain

import (
	"os"

	"golang.org/x/sys/unix"
)

// flushInput drops what was typed at the terminal f and not read yet
// (TIOCFLUSH with FREAD, which is what tcflush(TCIFLUSH) does on macOS).
func flushInput(f *os.File) { _ = unix.IoctlSetPointerInt(int(f.Fd()), unix.TIOCFLUSH, 1) }

package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// noEcho stops the terminal echoing steering input back as coder output.
func noEcho(f *os.File) {
	t, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	if err != nil {
		return
	}
	t.Lflag &^= unix.ECHO
	_ = unix.IoctlSetTermios(int(f.Fd()), unix.TCSETS, t)
}

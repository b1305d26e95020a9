package plain

import (
	"os"

	"golang.org/x/sys/windows"
)

// flushInput drops what was typed at the console f and not read yet.
func flushInput(f *os.File) { _ = windows.FlushConsoleInputBuffer(windows.Handle(f.Fd())) }

// Package filelock owns advisory whole-file locks between processes: flock
// on Linux and macOS, LockFileEx on Windows. It must not open or create
// the files it locks.
package filelock

import (
	"errors"
	"os"
)

// ErrLocked: TryLock found the file locked by someone else.
var ErrLocked = errors.New("the file is locked by another process")

// Lock waits for an exclusive lock on f.
func Lock(f *os.File) error { return lock(f, true) }

// TryLock takes an exclusive lock on f or fails at once with ErrLocked.
func TryLock(f *os.File) error { return lock(f, false) }

// Unlock releases the lock on f.
func Unlock(f *os.File) error { return unlock(f) }

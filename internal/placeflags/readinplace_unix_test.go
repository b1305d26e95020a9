//go:build unix

package placeflags

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A FIFO where go.mod was is not read (the open would block until a
// writer came, holding the caller's lock); a regular file is. Seen hanging
// without the non-blocking open and the type check.
func TestReadInPlaceNeverBlocksOnAFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "go.mod"), 0o644); err != nil {
		t.Skip("no FIFO here:", err)
	}
	if b := ReadInPlace(dir, "go.mod", 1<<20); b != nil {
		t.Errorf("a FIFO read as %q", b)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.work"), []byte("go 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b := ReadInPlace(dir, "go.work", 1<<20); string(b) != "go 1.26\n" {
		t.Errorf("go.work read as %q", b)
	}
	if b := ReadInPlace(dir, "go.work", 3); b != nil {
		t.Errorf("over the bound, read as %q", b)
	}
}

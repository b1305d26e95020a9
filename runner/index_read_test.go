//go:build unix

package runner

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A coder in place can make .git/index a fifo or a link: reading it is
// refused at once, never waited on or followed.
func TestReadGitIndexRefusesAFifoAndALink(t *testing.T) {
	t.Parallel()
	fifo := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(fifo, "index"), 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := readGitIndex(fifo); done <- err }()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a fifo was read as an index")
		}
	case <-time.After(time.Minute): // a bound on a hang: without O_NONBLOCK the open waits for a writer
		t.Fatal("reading a fifo index hung")
	}

	link := t.TempDir()
	secret := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(secret, []byte("DIRC"), 0o600)
	if err := os.Symlink(secret, filepath.Join(link, "index")); err != nil {
		t.Fatal(err)
	}
	if _, err := readGitIndex(link); err == nil {
		t.Fatal("a link was followed as an index")
	}

	plain := t.TempDir()
	os.WriteFile(filepath.Join(plain, "index"), []byte("DIRC"), 0o600)
	if b, err := readGitIndex(plain); err != nil || string(b) != "DIRC" {
		t.Fatalf("a plain index: %q, %v", b, err)
	}
}

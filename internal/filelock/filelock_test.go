package filelock

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// Two opens of one file are two lock holders (as two processes would be).
func TestTryLockSeesAnotherHolder(t *testing.T) {
	p := filepath.Join(t.TempDir(), "lock")
	a, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := Lock(a); err != nil {
		t.Fatal(err)
	}
	if err := TryLock(b); !errors.Is(err, ErrLocked) {
		t.Fatalf("TryLock of a locked file: %v, want ErrLocked", err)
	}
	if err := Unlock(a); err != nil {
		t.Fatal(err)
	}
	if err := TryLock(b); err != nil {
		t.Fatalf("TryLock after the unlock: %v", err)
	}
}

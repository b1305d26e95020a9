// Package testdirs gives a test process user directories of its own
// (XDG_STATE_HOME, XDG_CONFIG_HOME, XDG_RUNTIME_DIR, …), set once in
// TestMain, so that tests which only need their state kept out of the
// person's home can run in parallel instead of each calling t.Setenv (which
// a parallel test may not). A test that must see a directory holding only
// its own files still sets its own with t.Setenv and runs serially.
package testdirs

import (
	"fmt"
	"os"
	"path/filepath"
)

// Private points each of vars at a fresh directory under one temporary
// directory of this process and returns the function that removes it.
func Private(vars ...string) (remove func(), err error) {
	base, err := os.MkdirTemp("", "sentinel-test-dirs-")
	if err != nil {
		return nil, fmt.Errorf("test user dirs: %w", err)
	}
	remove = func() { os.RemoveAll(base) }
	for _, v := range vars {
		d := filepath.Join(base, v)
		if err := os.Mkdir(d, 0o700); err != nil {
			remove()
			return nil, fmt.Errorf("test user dirs: %w", err)
		}
		if err := os.Setenv(v, d); err != nil {
			remove()
			return nil, fmt.Errorf("test user dirs: %s: %w", v, err)
		}
	}
	return remove, nil
}

// Main runs m with vars pointed at private directories (Private), removes
// them and exits with m's code. It exits 1 if they cannot be made.
func Main(m interface{ Run() int }, vars ...string) {
	remove, err := Private(vars...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	remove()
	os.Exit(code)
}

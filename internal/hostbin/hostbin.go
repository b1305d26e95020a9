// Package hostbin finds the programs Sentinel itself starts on the host,
// outside any sandbox: git, bubblewrap, the system's `true`. Such a program
// runs with the person's whole environment (API keys, tokens), so it is
// never taken from PATH, the project or a directory someone else can write:
// only from the system's own bin directories, and only when the file and
// every directory above it belong to root (or to the person running
// Sentinel) and no one else can write them. The person's own programs that
// are not the system's (the Go toolchain for the verification seed, a
// supervisor's CLI, the desktop notifier) come from PATH as the process
// started, pinned before a coder acts and never from a place it can write
// (Person, person.go).
//
// It owns that choice and nothing else; it runs nothing itself.
package hostbin

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// systemDirs are where a system program may come from, in this order.
// PATH is not consulted: an entry of the project's (node_modules/.bin, a
// direnv bin) or one the person put first (~/bin) must not decide which
// program Sentinel runs before the sandbox exists.
var systemDirs = []string{
	"/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/bin", "/usr/local/sbin",
	"/run/current-system/sw/bin", // NixOS
	"/opt/homebrew/bin",          // macOS on arm64
}

var (
	mu        sync.Mutex
	testDirs  []string
	testDirOn bool
)

// Dirs are the directories Find looks in.
func Dirs() []string {
	mu.Lock()
	defer mu.Unlock()
	if testDirOn {
		return append([]string{}, testDirs...)
	}
	return append([]string{}, systemDirs...)
}

// SetDirsForTest makes Find look only in dirs (a test's own tools, which
// it then also trusts whoever owns them) until the returned func is called.
func SetDirsForTest(dirs []string) (restore func()) {
	mu.Lock()
	prevOn, prev := testDirOn, testDirs
	testDirOn, testDirs = true, append([]string{}, dirs...)
	mu.Unlock()
	return func() {
		mu.Lock()
		testDirOn, testDirs = prevOn, prev
		mu.Unlock()
	}
}

// ErrNotFound is wrapped by Find's error when no trusted copy exists.
var ErrNotFound = errors.New("not found in a system directory")

// Find is the absolute path of the trusted program name: the first one in
// Dirs that Check accepts. The error names the directories and why a copy
// found there was refused.
func Find(name string) (string, error) {
	if name == "" || strings.ContainsRune(name, '/') {
		return "", fmt.Errorf("hostbin: %q is not a program name", name)
	}
	if p, ok := fallback(name); ok {
		return p, nil
	}
	mu.Lock()
	testing := testDirOn
	mu.Unlock()
	var refused []string
	for _, d := range Dirs() {
		p := filepath.Join(d, name)
		if _, err := os.Lstat(p); err != nil {
			continue
		}
		if testing {
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0 {
				return p, nil
			}
			continue
		}
		if err := Check(p); err != nil {
			refused = append(refused, err.Error())
			continue
		}
		return p, nil
	}
	msg := fmt.Sprintf("%s %v (looked in %s)", name, ErrNotFound, strings.Join(Dirs(), ", "))
	if len(refused) > 0 {
		msg += "; refused: " + strings.Join(refused, "; ")
	}
	return "", fmt.Errorf("%s: %w", msg, ErrNotFound)
}

// Check accepts path when it is absolute and, after symlinks, a regular
// executable file that it and every directory above it are owned by root or
// the person running Sentinel and writable by no group or other user (a
// sticky directory such as /tmp excepted: others may add names there, not
// replace ours).
func Check(path string) error {
	if !filepath.IsAbs(path) {
		return fmt.Errorf("%s is not an absolute path", path)
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	st, err := os.Stat(real)
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	if !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0 {
		return fmt.Errorf("%s is not an executable file", real)
	}
	for p := real; ; p = filepath.Dir(p) {
		if err := owned(p); err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		if p == "/" || p == filepath.Dir(p) {
			return nil
		}
	}
}

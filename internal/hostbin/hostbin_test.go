//go:build unix

package hostbin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A program on PATH, in the project or in a directory another user can
// write is never what Find answers: only the system's own copy is.
func TestFindTakesOnlyTheSystemCopy(t *testing.T) {
	project := t.TempDir()
	bin := filepath.Join(project, "node_modules", ".bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"git", "sh"} {
		if err := os.WriteFile(filepath.Join(bin, n), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin+":"+os.Getenv("PATH"))
	got, err := Find("sh")
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(got, project) || !strings.HasPrefix(got, "/") {
		t.Errorf("Find(sh) = %s, want the system's", got)
	}
	if _, err := Find("no-such-program-here"); err == nil || !strings.Contains(err.Error(), "/usr/bin") {
		t.Errorf("a missing program: %v, want an error naming where it looked", err)
	}
}

// Check refuses a program in a directory anyone can write (a world-writable
// /tmp, a group-writable tools dir) and a relative path; it accepts the
// system's sh.
func TestCheckRefusesWritableAndRelativePlaces(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "tool")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Check(prog); err != nil {
		t.Fatalf("a tool in the person's own private dir: %v", err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := Check(prog); err == nil || !strings.Contains(err.Error(), "writable by others") {
		t.Errorf("a tool in a world-writable dir: %v, want refused", err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(prog, 0o775); err != nil {
		t.Fatal(err)
	}
	if err := Check(prog); err == nil {
		t.Error("a group-writable tool was accepted")
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(prog, link); err != nil {
		t.Fatal(err)
	}
	if err := Check(link); err == nil {
		t.Error("a link to a group-writable tool was accepted")
	}
	if err := Check("bin/sh"); err == nil {
		t.Error("a relative path was accepted")
	}
	if err := Check("/bin/sh"); err != nil {
		t.Errorf("the system's sh: %v", err)
	}
}

// A link in a system directory that leads into a writable place is refused
// by what it leads to.
func TestFindFollowsLinksToWhatTheyAre(t *testing.T) {
	sys := t.TempDir()
	other := t.TempDir()
	if err := os.Chmod(other, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "git"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(other, "git"), filepath.Join(sys, "git")); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	saved := systemDirs
	systemDirs = []string{sys}
	mu.Unlock()
	defer func() { mu.Lock(); systemDirs = saved; mu.Unlock() }()
	if p, err := Find("git"); err == nil {
		t.Errorf("Find(git) = %s through a link into a world-writable dir", p)
	}
}

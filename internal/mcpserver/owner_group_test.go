//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// sharedGroupID is a group no test user has as its private one: Debian's
// "users" (gid 100), which root is not the primary member of.
const sharedGroupID = 100

// sharedGroup gives file a group that is not its owner's private group
// (privateGroup), so a group bit on it lets another user write: as root
// only (another user cannot give a file to a group it is not in).
func sharedGroup(t *testing.T, file string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to give the file a shared group")
	}
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(file, int(fi.Sys().(*syscall.Stat_t).Uid), sharedGroupID); err != nil {
		t.Fatal(err)
	}
	if ok, _ := privateGroup(int(fi.Sys().(*syscall.Stat_t).Uid), sharedGroupID); ok {
		t.Skipf("gid %d is the owner's private group on this machine", sharedGroupID)
	}
}

// A config (and its folder) writable by its group is accepted when the
// group is its owner's private one with no other member (umask 002 with
// user private groups: Debian, Fedora, WSL made every config "unsafe");
// a group other users are in is still refused, with one line naming the
// file and the fix (chmod g-w). Users and groups are the machine's own,
// read through getent.
func TestAGroupWritableConfigIsAcceptedOnlyInItsOwnersPrivateGroup(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "mcp.toml")
	write(t, file, newFixture(t).config(""))
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	if ok, why := privateGroup(int(st.Uid), int(st.Gid)); !ok {
		t.Skipf("the test user's group is not private here (%s)", why)
	}
	if err := os.Chmod(dir, 0o775); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(file, 0o664); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadConfig(file); err != nil {
		t.Errorf("a config writable only by its owner's private group (umask 002) is refused: %v", err)
	}
	sharedGroup(t, file)
	if err := os.Chmod(file, 0o664); err != nil {
		t.Fatal(err)
	}
	_, err = LoadConfig(file)
	if err == nil {
		t.Fatal("a config writable by a group that is not its owner's private one is accepted")
	}
	if msg := err.Error(); !strings.Contains(msg, file) || !strings.Contains(msg, "chmod g-w "+file) || strings.Contains(msg, "\n") {
		t.Errorf("the refusal %q is not one line naming %s and its fix (chmod g-w)", msg, file)
	}
}

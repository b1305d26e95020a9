//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A symlink of another user's as a PARENT of the [log] file, the audit
// journal or the config (in a sticky world-writable folder, where anyone
// may add one) is not followed: root's server made and wrote a file in
// the directory the link chose (review #31, MED 3). The file is not made
// there. A link of your own on the way is still followed.
func TestAnotherUsersLinkedParentIsRefused(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give the link away")
	}
	base := t.TempDir()
	shared := filepath.Join(base, "shared")
	target := filepath.Join(base, "rootdir")
	for _, d := range []string{shared, target} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(shared, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(shared, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Lchown(link, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(target, "mcp.toml"), newFixture(t).config(""))
	if f, err := openLogFile(filepath.Join(link, "mcp.log")); err == nil {
		f.Close()
		t.Errorf("openLogFile through another user's linked parent: nil error")
	} else if !strings.Contains(err.Error(), "symlink owned by another user") {
		t.Errorf("openLogFile: %v, want the link named", err)
	}
	if err := ownJournalFile(filepath.Join(link, "audit.jsonl")); err == nil {
		t.Errorf("ownJournalFile through another user's linked parent: nil error")
	}
	for _, name := range []string{"mcp.log", "audit.jsonl"} {
		if _, err := os.Lstat(filepath.Join(target, name)); err == nil {
			t.Errorf("%s was made in the linked directory", name)
		}
	}
	if _, err := readOwnConfig(filepath.Join(link, "mcp.toml")); err == nil {
		t.Errorf("readOwnConfig through another user's linked parent: nil error")
	}

	// Your own link on the way is followed.
	own := filepath.Join(shared, "own")
	if err := os.Symlink(target, own); err != nil {
		t.Fatal(err)
	}
	f, err := openLogFile(filepath.Join(own, "mcp.log"))
	if err != nil {
		t.Fatalf("openLogFile through your own link: %v", err)
	}
	f.Close()
	if _, err := readOwnConfig(filepath.Join(own, "mcp.toml")); err != nil {
		t.Errorf("readOwnConfig through your own link: %v", err)
	}
}

// Under sudo (root, SUDO_UID set) the invoking user's own config, audit
// and log files are accepted: `sudo sentinel mcp --config ~/mcp.toml` was
// refused (review #31, MED 4). Another user's, or one group or others may
// write, still is not. Not parallel: it sets SUDO_UID.
func TestTheSudoUsersOwnFilesAreAccepted(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "mcp.toml")
	write(t, file, newFixture(t).config(""))
	for _, p := range []string{dir, file} {
		if err := os.Chown(p, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("SUDO_UID", "")
	if _, err := LoadConfig(file); err == nil {
		t.Fatalf("another user's config without sudo: nil error")
	}
	t.Setenv("SUDO_UID", "65534")
	if _, err := LoadConfig(file); err != nil {
		t.Errorf("the sudo user's own config: %v", err)
	}
	f, err := openLogFile(filepath.Join(dir, "mcp.log"))
	if err != nil {
		t.Errorf("a log file in the sudo user's folder: %v", err)
	} else {
		f.Close()
	}
	if err := ownJournalFile(filepath.Join(dir, "audit.jsonl")); err != nil {
		t.Errorf("an audit file in the sudo user's folder: %v", err)
	}
	sharedGroup(t, file)
	os.Chmod(file, 0o664)
	if _, err := LoadConfig(file); err == nil || !strings.Contains(err.Error(), "writable by group or others") {
		t.Errorf("the sudo user's group-writable config: %v, want it refused", err)
	}
	t.Setenv("SUDO_UID", "65533")
	os.Chmod(file, 0o644)
	if _, err := LoadConfig(file); err == nil {
		t.Errorf("a config of a user other than SUDO_UID: nil error")
	}
}

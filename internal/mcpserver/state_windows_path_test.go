//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"testing"
)

// Where a FileInfo carries no device and inode (Windows), the state guard
// knows its files as FileInfos and compares with os.SameFile: a hard link
// to the record key elsewhere is still the key.
func TestStateKnownBySameFileWithoutInodes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	key := filepath.Join(dir, "state", "record.key")
	write(t, key, "k")
	fi, err := os.Lstat(key)
	if err != nil {
		t.Fatal(err)
	}
	g := &stateGuard{ids: map[ident]string{}, infos: []stateFile{{fi: fi, what: filepath.Dir(key)}}}
	link := filepath.Join(dir, "project", "key")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(key, link); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "project", "other")
	write(t, other, "o")
	lfi, _ := os.Lstat(link)
	ofi, _ := os.Lstat(other)
	if g.check(lfi, link) == nil {
		t.Fatal("a hard link to a state file was not known as state")
	}
	if err := g.check(ofi, other); err != nil {
		t.Fatalf("an unrelated file was taken for state: %v", err)
	}
}

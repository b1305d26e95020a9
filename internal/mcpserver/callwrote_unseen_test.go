//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What the person changes where no tool reaches — a credential location
// under an rw path (the home, rw for the file tools) — while a writing
// call runs is never named to the client: the call cannot have changed
// it, and the name itself (a password store's site, a key's name) is
// what the file tools refuse to show. The delete's backup rename is
// where the person "writes" here, as another process might. Not
// parallel: it swaps renameAside and sets HOME.
func TestChangedPathsNeverNameAnUnseenLocation(t *testing.T) {
	home, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	victim := filepath.Join(home, "proj", "old.txt")
	write(t, victim, "old\n")
	write(t, filepath.Join(home, ".ssh", "known_hosts"), "")
	oldRename := renameAside
	renameAside = func(l fileLayer, od dirFS, oname string, nd dirFS, nname string) error {
		write(t, filepath.Join(home, ".password-store", "bank.example.com", "alice.gpg"), "x")
		write(t, filepath.Join(home, ".ssh", "id_work_github"), "k")
		return oldRename(l, od, oname, nd, nname)
	}
	defer func() { renameAside = oldRename }()
	cfg := mustConfig(t, `[[paths]]
path = "`+home+`"
access = "rw"
`)
	cs, _ := session(t, cfg, Options{})
	_, changed, isErr := callBlocks(t, cs, "delete", map[string]any{"path": victim})
	if isErr {
		t.Fatalf("delete refused: %s", changed)
	}
	if !strings.Contains(changed, "D proj/old.txt") {
		t.Errorf("the call's own change is not named: %q", changed)
	}
	for _, unseen := range []string{".password-store", "bank.example.com", ".ssh", "id_work_github"} {
		if strings.Contains(changed, unseen) {
			t.Errorf("the answer names %s, where no tool reaches: %q", unseen, changed)
		}
	}
	if _, err := os.Stat(filepath.Join(home, ".ssh", "id_work_github")); err != nil {
		t.Fatal(err)
	}
}

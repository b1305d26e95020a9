//go:build unix

package checkpoint

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const secret = "-----BEGIN OPENSSH PRIVATE KEY----- the person's real key\n"

func hashOf(body string) string {
	h := sha256.Sum256([]byte(body))
	return hex.EncodeToString(h[:])
}

// swapForLink replaces the directory root/rel with a link to target.
func swapForLink(t *testing.T, root, rel, target string) {
	t.Helper()
	must(t, os.Rename(filepath.Join(root, rel), filepath.Join(root, rel+".old")))
	must(t, os.Symlink(target, filepath.Join(root, rel)))
}

// wantUncovered fails unless rel is listed, not covered (said the way an
// unreadable file is), with no content.
func wantUncovered(t *testing.T, m *Manifest, rel string) {
	t.Helper()
	e, ok := m.Get(rel)
	if !ok {
		t.Fatalf("%s is not listed", rel)
	}
	if e.covered() || e.Hash != "" || !strings.HasPrefix(e.Skip, unreadable) {
		t.Fatalf("%s is recorded as covered: %+v", rel, *e)
	}
	if m.Covers(rel) || m.Covers(".") {
		t.Fatalf("Covers says %s (or the place) is covered", rel)
	}
	found := false
	for _, nc := range m.NotCovered() {
		found = found || nc.Path == rel
	}
	if !found {
		t.Fatalf("%s is missing from NotCovered", rel)
	}
}

// A directory the walk saw swapped for a link to a directory outside the
// place (~/.ssh) — after the walk, or while it runs, between recording the
// directory and listing it — never gets the outside file's content into
// the checkpoint (whence undo would write it into the place): the file
// (after the walk) or the directory (during it) is listed, not covered.
func TestASwappedDirectoryNeverStoresWhatIsOutside(t *testing.T) {
	testASwappedDirectory(t, Options{})
}

func testASwappedDirectory(t *testing.T, base Options) {
	for _, when := range []string{"after the walk", "during the walk"} {
		t.Run(strings.ReplaceAll(when, " ", "_"), func(t *testing.T) {
			root, _ := filepath.EvalSymlinks(t.TempDir())
			ssh, _ := filepath.EvalSymlinks(t.TempDir())
			write(t, root, "a/id_ed25519", "a decoy the walk sees\n", 0o600)
			write(t, root, "main.go", "package main\n", 0o644)
			write(t, ssh, "id_ed25519", secret, 0o600)
			swap := func() { swapForLink(t, root, "a", ssh) }
			o := base
			if when == "after the walk" {
				o.betweenWalkAndRead = swap
			} else {
				o.walked = func(rel string) {
					if rel == "a" {
						swap()
					}
				}
			}
			s := newStore(t, root)
			m := take(t, s, root, o)
			if s.has(hashOf(secret)) {
				t.Fatal("the key outside the place was stored in the checkpoint")
			}
			if when == "after the walk" {
				wantUncovered(t, m, "a/id_ed25519")
			} else {
				// The walk lists a through the place: a link out of it
				// is unreadable, and what is outside is not even listed.
				wantUncovered(t, m, "a")
				if _, ok := m.Get("a/id_ed25519"); ok {
					t.Fatal("the walk listed what is outside the place")
				}
			}
			if !m.Covers("main.go") {
				t.Fatal("the rest of the place is no longer covered")
			}
		})
	}
}

// A file replaced after the walk listed it — renamed over, or its
// directory swapped for a link to another directory of the place — is
// not the file the walk listed (its device and inode differ), so that
// path is not covered rather than holding the other file's content.
func TestAFileReplacedAfterTheWalkIsNotCovered(t *testing.T) {
	testAFileReplaced(t, Options{})
}

func testAFileReplaced(t *testing.T, base Options) {
	for _, how := range []string{"renamed over", "dir swapped for a link"} {
		t.Run(strings.ReplaceAll(how, " ", "_"), func(t *testing.T) {
			root, _ := filepath.EvalSymlinks(t.TempDir())
			write(t, root, "a/f", "a's own\n", 0o644)
			write(t, root, "b/f", "b's, not a's\n", 0o644)
			o := base
			o.betweenWalkAndRead = func() {
				if how == "renamed over" {
					write(t, root, "a/f.new", "not what the walk saw\n", 0o644)
					must(t, os.Rename(filepath.Join(root, "a/f.new"), filepath.Join(root, "a/f")))
				} else {
					swapForLink(t, root, "a", "b")
				}
			}
			s := newStore(t, root)
			m := take(t, s, root, o)
			wantUncovered(t, m, "a/f")
			if !m.Covers("b/f") {
				t.Fatal("b/f, untouched, is not covered")
			}
		})
	}
}

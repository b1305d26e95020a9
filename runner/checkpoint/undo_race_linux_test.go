//go:build linux

package checkpoint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A directory swapped for a link between undo's link check and its write
// (a process the run left, racing undo: here at the very moment, through
// stepHook) is not written through: the write's parent is opened following
// no link, so a's content never lands in b, and a's deleted file is not
// recreated in b either.
func TestUndoRefusesADirectorySwappedBetweenCheckAndWrite(t *testing.T) {
	testUndoRefusesASwap(t, false)
}

func testUndoRefusesASwap(t *testing.T, noOpenat2 bool) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	write(t, root, "a/f", "a's own\n", 0o644)
	write(t, root, "a/g", "a's g\n", 0o644)
	write(t, root, "b/f", "b's\n", 0o644)
	s := newStore(t, root)
	before := take(t, s, root, Options{})
	write(t, root, "a/f", "the run's edit\n", 0o644)
	must(t, os.Remove(filepath.Join(root, "a/g")))
	after := take(t, s, root, Options{Prev: before})
	plan := PlanUndo(before, after, after)
	if len(plan.Steps) != 2 {
		t.Fatalf("plan: %+v", plan.Steps)
	}
	swapped := false
	hook := func(p string) {
		if !swapped && strings.HasPrefix(p, "a/") {
			swapped = true
			swapForLink(t, root, "a", "b")
		}
	}
	_, err := apply(s, root, plan, applyOptions{stepHook: hook, noOpenat2: noOpenat2})
	if !swapped {
		t.Fatal("the hook never ran: the test checks nothing")
	}
	if err == nil || !strings.Contains(err.Error(), "a is a symlink now") {
		t.Errorf("undo through a directory swapped after its check did not fail saying why: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "b/f")); string(b) != "b's\n" {
		t.Errorf("undo wrote a's content through the link into b/f: %q", b)
	}
	if _, err := os.Lstat(filepath.Join(root, "b/g")); err == nil {
		t.Error("undo recreated a/g through the link as b/g")
	}
}

// The same swap, on a kernel without openat2: the parent is opened an
// element at a time, none followed.
func TestUndoRefusesASwappedDirectoryWithoutOpenat2(t *testing.T) {
	testUndoRefusesASwap(t, true)
}

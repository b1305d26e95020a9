package inplace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// An undo that keeps the person's later work (h/ipfix12): 'sentinel undo
// --list' shows the run "partly undone", naming what was kept, not
// undone and not merely undoable; once the person resolves the kept paths
// (one put back as the run left it, one made as it was before the run), a
// second 'sentinel undo RUN' finishes the rest, exits 0, and the list
// then says the run was undone.
func TestUndoListSaysPartlyUndoneAndASecondUndoFinishes(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	for _, f := range []string{"a.txt", "b.txt", "c.txt"} {
		e2etest.WriteFile(t, filepath.Join(dir, f), f+" before the run\n")
	}
	env := []string{"HOME=" + execHome(t), "XDG_STATE_HOME=" + t.TempDir(), "XDG_CACHE_HOME=" + t.TempDir()}
	want := placeHash(t, dir)
	if res := e2etest.Sentinel(t, dir, env, "exec", "--plain", "--", "sh", "-c", "echo run >> a.txt && echo run >> b.txt && echo run >> c.txt"); res.Code != 0 {
		t.Fatalf("exec: exit %d\n%s\n%s", res.Code, res.Stdout, res.Stderr)
	}
	run := e2etest.LastRun(t, dir)
	e2etest.WriteFile(t, filepath.Join(dir, "a.txt"), "the person's edit of a\n")
	e2etest.WriteFile(t, filepath.Join(dir, "b.txt"), "the person's edit of b\n")
	if res := e2etest.Sentinel(t, dir, env, "undo", run); res.Code != 1 {
		t.Fatalf("undo with later changes: exit %d, want 1\n%s%s", res.Code, res.Stdout, res.Stderr)
	}
	stateOf := func() string {
		t.Helper()
		list := e2etest.Sentinel(t, dir, env, "undo", "--list")
		for _, l := range strings.Split(list.Stdout, "\n") {
			if strings.HasPrefix(l, run+" ") {
				return l
			}
		}
		t.Fatalf("undo --list does not list %s:\n%s%s", run, list.Stdout, list.Stderr)
		return ""
	}
	if l := stateOf(); !strings.Contains(l, "partly undone (2 kept: a.txt, b.txt)") {
		t.Errorf("undo --list does not say the run is partly undone, naming what was kept:\n%s", l)
	}

	// The person resolves both: a as the run left it, b as before the run.
	e2etest.WriteFile(t, filepath.Join(dir, "a.txt"), "a.txt before the run\nrun\n")
	e2etest.WriteFile(t, filepath.Join(dir, "b.txt"), "b.txt before the run\n")
	fin := e2etest.Sentinel(t, dir, env, "undo", run)
	if fin.Code != 0 || !strings.Contains(fin.Stdout, "restore a.txt") {
		t.Fatalf("a second undo after the kept paths were resolved: exit %d\n%s%s", fin.Code, fin.Stdout, fin.Stderr)
	}
	if got := placeHash(t, dir); got != want {
		t.Fatalf("the second undo did not finish:\nwant\n%s\ngot\n%s", want, got)
	}
	if l := stateOf(); !strings.Contains(l, "undone by undo-") || strings.Contains(l, "partly") {
		t.Errorf("undo --list after the second undo:\n%s", l)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "c.txt")); string(b) != "c.txt before the run\n" {
		t.Errorf("c.txt: %q", b)
	}
}

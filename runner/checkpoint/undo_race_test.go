//go:build unix

package checkpoint

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The person works on while undo runs (ipatk13): a file they save after
// undo looked at the place and before it writes that path — one the run
// edited, one the run made, one the run deleted that they make again — is
// left as they made it and told (Applied.Raced), not overwritten or
// removed with nothing said; the rest is put back.
func TestUndoKeepsWhatThePersonChangesWhileItRuns(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	write(t, root, "edited", "before the run\n", 0o644)
	write(t, root, "deleted", "before the run\n", 0o644)
	write(t, root, "other", "before the run\n", 0o644)
	s := newStore(t, root)
	before := take(t, s, root, Options{})
	write(t, root, "edited", "the run's\n", 0o644)
	write(t, root, "made", "the run's\n", 0o644)
	write(t, root, "other", "the run's\n", 0o644)
	must(t, os.Remove(filepath.Join(root, "deleted")))
	after := take(t, s, root, Options{Prev: before})
	now := take(t, s, root, Options{Prev: after})
	plan := PlanUndo(before, after, now)
	if len(plan.Steps) != 4 {
		t.Fatalf("plan: %+v", plan.Steps)
	}
	person := map[string]string{"edited": "the person's, saved while undo ran\n", "made": "the person's edit of the run's file\n", "deleted": "the person's new file\n"}
	hooked := map[string]bool{}
	hook := func(p string) {
		if body, ok := person[p]; ok && !hooked[p] {
			hooked[p] = true
			write(t, root, p, body, 0o644)
		}
	}
	applied, err := apply(s, root, plan, applyOptions{stepHook: hook})
	if err != nil {
		t.Fatal(err)
	}
	if len(hooked) != len(person) {
		t.Fatalf("the hook ran for %v only: the test checks nothing", hooked)
	}
	for p, body := range person {
		if b, _ := os.ReadFile(filepath.Join(root, p)); string(b) != body {
			t.Errorf("%s: the person's change made while undo ran was lost: %q", p, b)
		}
		if !slices.ContainsFunc(applied.Raced, func(c Conflict) bool { return c.Path == p }) {
			t.Errorf("%s: not told as changed while undo ran: %+v", p, applied.Raced)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(root, "other")); string(b) != "before the run\n" {
		t.Errorf("other: not put back: %q", b)
	}
}

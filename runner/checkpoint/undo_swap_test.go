//go:build unix

package checkpoint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A directory swapped for a link after undo planned (a process the run
// left, racing it) is never written through: not out of the place, where
// the root refuses it, and not to another directory of the place, where
// the link would put a's content over b's. The step fails, saying why.
func TestUndoNeverWritesThroughADirectorySwappedForALink(t *testing.T) {
	for _, to := range []string{"outside", "inside"} {
		t.Run(to, func(t *testing.T) {
			root, _ := filepath.EvalSymlinks(t.TempDir())
			outside, _ := filepath.EvalSymlinks(t.TempDir())
			write(t, root, "a/f", "a's own\n", 0o644)
			write(t, root, "b/f", "b's\n", 0o644)
			write(t, outside, "f", "the person's, outside\n", 0o644)
			s := newStore(t, root)
			before := take(t, s, root, Options{})
			write(t, root, "a/f", "the run's edit\n", 0o644)
			after := take(t, s, root, Options{Prev: before})
			plan := PlanUndo(before, after, after)
			if len(plan.Steps) != 1 || plan.Steps[0].Path != "a/f" {
				t.Fatalf("plan: %+v", plan.Steps)
			}
			target := outside
			if to == "inside" {
				target = "b"
			}
			swapForLink(t, root, "a", target)
			_, err := Apply(s, root, plan)
			if err == nil || !strings.Contains(err.Error(), "a is a symlink now") {
				t.Errorf("undo through a swapped directory did not fail saying why: %v", err)
			}
			for _, p := range []string{filepath.Join(outside, "f"), filepath.Join(root, "b/f")} {
				b, _ := os.ReadFile(p)
				if strings.Contains(string(b), "a's own") {
					t.Fatalf("undo wrote through the link into %s", p)
				}
			}
			des, _ := os.ReadDir(outside)
			if len(des) != 1 {
				t.Fatalf("undo left something in %s: %v", outside, des)
			}
		})
	}
}

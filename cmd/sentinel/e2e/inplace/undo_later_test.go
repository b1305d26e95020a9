package inplace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// After an exec run the person edits a file the run changed, deletes
// another the run changed, makes one where the run deleted one, deletes one
// the run made and adds their own. 'sentinel undo' puts back only what is
// still as the run left it, keeps each of the person's later changes and
// names it on one line, and exits 1: not everything was undone. The run
// stays undoable, and 'sentinel undo --force' then puts back the rest.
func TestExecUndoKeepsThePersonsLaterWork(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	for _, f := range []string{"edited.txt", "gone.txt", "remade.txt", "plain.txt"} {
		e2etest.WriteFile(t, filepath.Join(dir, f), f+" before the run\n")
	}
	env := []string{"HOME=" + execHome(t), "XDG_STATE_HOME=" + t.TempDir(), "XDG_CACHE_HOME=" + t.TempDir()}
	before := placeHash(t, dir)
	script := strings.Join([]string{
		"echo run >> edited.txt", "echo run >> gone.txt", "echo run >> plain.txt",
		"rm remade.txt", "echo run > made.txt", "echo run > dropped.txt",
	}, " && ")
	if res := e2etest.Sentinel(t, dir, env, "exec", "--plain", "--", "sh", "-c", script); res.Code != 0 {
		t.Fatalf("exec: exit %d\n%s\n%s", res.Code, res.Stdout, res.Stderr)
	}
	e2etest.WriteFile(t, filepath.Join(dir, "edited.txt"), "the person's later edit\n")
	e2etest.WriteFile(t, filepath.Join(dir, "remade.txt"), "the person's new file\n")
	e2etest.WriteFile(t, filepath.Join(dir, "mine.txt"), "the person's own\n")
	for _, f := range []string{"gone.txt", "dropped.txt"} {
		if err := os.Remove(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}

	res := e2etest.Sentinel(t, dir, env, "undo")
	out := res.Stdout + res.Stderr
	if res.Code != 1 {
		t.Errorf("undo with later changes kept: exit %d, want 1\n%s", res.Code, out)
	}
	read := func(f string) string {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return "(none)"
		}
		return string(b)
	}
	for f, want := range map[string]string{
		"plain.txt":   "plain.txt before the run\n", // the run's, untouched since: put back
		"made.txt":    "(none)",                     // made by the run: removed
		"edited.txt":  "the person's later edit\n",
		"remade.txt":  "the person's new file\n",
		"gone.txt":    "(none)",
		"dropped.txt": "(none)",
		"mine.txt":    "the person's own\n",
	} {
		if got := read(f); got != want {
			t.Errorf("%s after undo: %q, want %q\n%s", f, got, want, out)
		}
	}
	for _, f := range []string{"edited.txt", "gone.txt", "remade.txt"} {
		n := 0
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "kept: "+f+" — ") && strings.Contains(l, "sentinel undo --force") {
				n++
			}
		}
		if n != 1 {
			t.Errorf("want one line keeping %s, naming --force; got %d\n%s", f, n, out)
		}
	}
	for _, l := range strings.Split(out, "\n") {
		for _, f := range []string{"dropped.txt", "mine.txt"} {
			if strings.HasPrefix(l, "  ") && strings.Contains(l, f) { // the task in the heading names dropped.txt
				t.Errorf("undo names %s, which needs nothing:\n%s", f, out)
			}
		}
	}

	force := e2etest.Sentinel(t, dir, env, "undo", "--force")
	if force.Code != 0 {
		t.Fatalf("undo --force: exit %d\n%s%s", force.Code, force.Stdout, force.Stderr)
	}
	if err := os.Remove(filepath.Join(dir, "mine.txt")); err != nil {
		t.Fatal(err)
	}
	if got := placeHash(t, dir); got != before {
		t.Fatalf("undo --force did not put the rest back:\nwant\n%s\ngot\n%s\n%s", before, got, force.Stdout)
	}
}

//go:build linux

package checkpoint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/testuser"
)

// asUnprivileged re-runs the calling test as the unprivileged CI user when
// the suite runs as root (root reads a mode-000 directory, so an unreadable
// one exists only for another user) and says whether it did: the caller
// then returns, the child having done the work.
func asUnprivileged(t *testing.T) bool {
	t.Helper()
	return testuser.Rerun(t, testuser.CI)
}

// One directory the person's user cannot list costs only itself: the
// checkpoint lists it once, not covered (so the place as a whole is not
// covered, and the policy's Checkpointed stays false), and the stat
// fast path still answers for the rest — the same while nothing changed
// and while that directory stays unreadable, no as soon as anything else
// changes or the directory can be listed again.
func TestAnUnreadableDirectoryCostsOnlyItself(t *testing.T) {
	if asUnprivileged(t) {
		return
	}
	root, _ := filepath.EvalSymlinks(t.TempDir())
	write(t, root, "a.txt", "alpha\n", 0o644)
	write(t, root, "locked/secret.txt", "hidden\n", 0o644)
	write(t, root, "open/b.txt", "bravo\n", 0o644)
	locked := filepath.Join(root, "locked")
	must(t, os.Chmod(locked, 0o000))
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	s := newStore(t, root)
	m := take(t, s, root, Options{})
	m.Started = time.Now().Add(racyMargin + time.Second) // stamps trusted, as in TestUnchangedSeesEveryChangeUndoNeeds

	var listed []string
	for _, e := range m.Entries {
		if e.Path == "locked" {
			listed = append(listed, string(e.Kind)+" "+e.Skip)
		}
	}
	if len(listed) != 1 || !strings.HasPrefix(listed[0], "other unreadable: ") {
		t.Fatalf("the unreadable directory is not one uncovered entry: %q", listed)
	}
	if nc := m.NotCovered(); len(nc) != 1 || nc[0].Path != "locked" {
		t.Fatalf("not covered: %+v", nc)
	}
	if m.Covers(".") || m.Covers("locked") || !m.Covers("open") || !m.Covers("a.txt") {
		t.Fatal("Covers: the place or the unreadable directory counted as covered, or the rest did not")
	}

	if !Unchanged(root, m, nil) {
		t.Fatal("one unreadable directory turned the fast path off for the whole place")
	}
	after := take(t, s, root, Options{Prev: m})
	if d := Diff(m, after); len(d) != 0 {
		t.Fatalf("Unchanged said the same, a full checkpoint differs: %v", d)
	}

	write(t, root, "open/new.txt", "", 0o644)
	if Unchanged(root, m, nil) {
		t.Fatal("a new file beside the unreadable directory was not seen")
	}
	must(t, os.Remove(filepath.Join(root, "open/new.txt")))
	if !Unchanged(root, m, nil) {
		t.Fatal("the place is back as it was, the fast path did not say so")
	}
	must(t, os.Chmod(locked, 0o755))
	if Unchanged(root, m, nil) {
		t.Fatal("the directory can be listed now (a full checkpoint would record what is in it), and Unchanged said the same")
	}
}

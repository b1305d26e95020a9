//go:build unix

package gitdir

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sentinelhq/sentinel/internal/testuser"
)

// A coder running as the person's user makes the git dir it planted
// unmovable for the person's user by taking the write bit off its parent
// (the entry cannot leave it) and off the git dir itself (a directory
// moved to another directory needs it, for its ".."), or by leaving the
// git dir only searchable: git still runs its config from there. The
// mover, acting as the same user, gives itself those bits back, moves the
// git dir out, and puts the parent's mode back. Root never meets this
// (it ignores modes): the test runs as the unprivileged CI user.
func TestMoveOutGetsPastModesTheCoderTookAway(t *testing.T) {
	if testuser.Rerun(t, testuser.CI) {
		return
	}
	for _, tc := range []struct {
		name            string
		parent, gitMode os.FileMode
		across          bool // the quarantine on another file system
	}{
		{"parent and git dir read-only", 0o555, 0o555, false},
		{"parent read-only, git dir only searchable", 0o555, 0o111, false},
		{"parent only searchable, git dir read-only", 0o111, 0o555, false},
		{"parent read-only, quarantine on another file system", 0o555, 0o755, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, q := t.TempDir(), t.TempDir()
			sub := filepath.Join(root, "sub")
			gd := filepath.Join(sub, "g")
			for _, d := range []string{"objects", "refs/heads"} {
				if err := os.MkdirAll(filepath.Join(gd, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for f, body := range map[string]string{"HEAD": "ref: refs/heads/main\n", "config": "[core]\n\tpager = touch PWNED\n"} {
				if err := os.WriteFile(filepath.Join(gd, f), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			id, err := IDOf(gd)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(gd, tc.gitMode); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(sub, tc.parent); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = os.Chmod(sub, 0o755) })
			t.Cleanup(func() { _ = os.Chmod(gd, 0o755) })
			mover := Mover{}
			if tc.across {
				mover = acrossFileSystems()
			}
			if err := mover.MoveOut(root, gd, id, q, "x"); err != nil {
				t.Fatalf("MoveOut of a git dir whose modes the coder took away: %v", err)
			}
			if _, err := os.Lstat(gd); err == nil {
				t.Errorf("%s is still in the place", gd)
			}
			if _, err := os.Lstat(filepath.Join(q, "x", "HEAD")); err != nil {
				t.Errorf("the git dir is not in the quarantine: %v", err)
			}
			st, err := os.Stat(sub)
			if err != nil {
				t.Fatal(err)
			}
			if st.Mode().Perm() != tc.parent {
				t.Errorf("the parent's mode is %04o after the move, want it put back to %04o", st.Mode().Perm(), tc.parent)
			}
		})
	}
}

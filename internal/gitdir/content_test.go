package gitdir

import (
	"os"
	"testing"
)

// Git takes a folder for a git dir when it holds HEAD and can enter its
// objects and refs: a link there (to a folder) or an executable file
// counts as well as a folder; only a plain file does not.
func TestAGitDirByContentMayHoldLinks(t *testing.T) {
	head := os.FileMode(0o644)
	for _, c := range []struct {
		objects, refs os.FileMode
		want          bool
	}{
		{os.ModeDir, os.ModeDir, true},
		{os.ModeSymlink, os.ModeDir, true},
		{os.ModeDir, os.ModeSymlink, true},
		{0o755, os.ModeDir, true},
		{0o644, os.ModeDir, false},
		{os.ModeDir, 0, false},
	} {
		names := map[string]os.FileMode{"HEAD": head, "objects": c.objects, "refs": c.refs}
		if got := IsGitDirByContent(names); got != c.want {
			t.Errorf("objects %v, refs %v: git dir = %v, want %v", c.objects, c.refs, got, c.want)
		}
	}
}

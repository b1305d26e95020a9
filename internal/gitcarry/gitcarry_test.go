package gitcarry

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A ref's value comes from a file the coder could write. One that is an
// option (--output=FILE) rather than an object name never reaches git:
// git diff-tree would otherwise create FILE on the host, as the person.
func TestARefThatIsAnOptionNeverReachesGit(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"-c", "user.name=t", "-c", "user.email=t@x", "commit", "-q", "--allow-empty", "-m", "one"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	out, err := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	head := strings.TrimSpace(string(out))
	planted := filepath.Join(t.TempDir(), "planted")
	for _, c := range []struct {
		base, tip string
		stash     bool
	}{
		{"", "--output=" + planted, true},
		{head, "--output=" + planted, false},
		{"--output=" + planted, head, false},
		{"", "", false},
	} {
		if _, err := Files(context.Background(), dir, filepath.Join(dir, ".git"), c.base, c.tip, c.stash); err == nil {
			t.Errorf("Files(%q, %q): no error", c.base, c.tip)
		}
	}
	if m, _ := filepath.Glob(planted + "*"); len(m) > 0 {
		t.Errorf("git wrote %v", m)
	}
	if files, err := Files(context.Background(), dir, filepath.Join(dir, ".git"), "", head, false); err != nil || len(files) != 0 {
		t.Errorf("an empty commit carries %v (%v)", files, err)
	}
	_ = os.Remove(planted)
}

package gitindex

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func gitT(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.email=a@b", "-c", "user.name=a"}, args...)...)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// The marks git's update-index sets are read in every index version and
// in a sparse index (whose directory entries, git's own, are not named),
// and taken off so that git sees the file again.
func TestMarksAreReadAndTakenOffInEveryIndexVersion(t *testing.T) {
	for _, v := range []string{"2", "3", "4", "sparse"} {
		t.Run(v, func(t *testing.T) {
			r := t.TempDir()
			gitT(t, r, "init", "-q")
			for _, p := range []string{"in/a", "in/b", "in/deep/long-name-c", "out/d", "out/e"} {
				if err := os.MkdirAll(filepath.Join(r, filepath.Dir(p)), 0o755); err != nil {
					t.Fatal(err)
				}
				os.WriteFile(filepath.Join(r, p), []byte(p), 0o644)
			}
			gitT(t, r, "add", ".")
			gitT(t, r, "commit", "-qm", "one")
			if v == "sparse" {
				gitT(t, r, "sparse-checkout", "set", "--sparse-index", "in")
			} else {
				gitT(t, r, "update-index", "--index-version", v)
			}
			gitT(t, r, "update-index", "--assume-unchanged", "in/a")
			gitT(t, r, "update-index", "--skip-worktree", "in/deep/long-name-c")
			b, err := Read(filepath.Join(r, ".git"))
			if err != nil {
				t.Fatal(err)
			}
			m, err := Marks(b)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]Mark{"in/a": Assume, "in/deep/long-name-c": Skip}
			if len(m) != len(want) || m["in/a"] != want["in/a"] || m["in/deep/long-name-c"] != want["in/deep/long-name-c"] {
				t.Fatalf("marks %v, want %v", m, want)
			}
			c, err := WithoutMarks(b, m)
			if err != nil {
				t.Fatal(err)
			}
			if err := Replace(filepath.Join(r, ".git"), b, c); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("git", "-C", r, "ls-files", "-v", "in")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("git cannot read the index without the marks: %v\n%s", err, out)
			}
			if got := string(out); got != "H in/a\nH in/b\nH in/deep/long-name-c\n" {
				t.Errorf("git ls-files -v after:\n%s", got)
			}
		})
	}
}

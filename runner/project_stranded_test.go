package runner

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// After an in-place run is killed between its coder's commit and the end
// of the run, the branch names a commit whose objects are only in the
// run's scratch dir. FindProject (run, runs, show, review) must not take
// that for "no commits yet": it recovers the objects itself and finds the
// project (31, kill -9 mid exec).
func TestFindProjectRecoversAKilledInPlaceRunsCommit(t *testing.T) {
	t.Parallel()

	p, id, commit, _ := killedInPlaceRun(t)
	got, err := FindProject(context.Background(), p.Root)
	if err != nil {
		t.Fatalf("FindProject after a killed in-place run: %v", err)
	}
	if got.Root != p.Root {
		t.Errorf("root %q, want %q", got.Root, p.Root)
	}
	if out, err := exec.Command("git", "-C", p.Root, "cat-file", "-t", commit).Output(); err != nil || strings.TrimSpace(string(out)) != "commit" {
		t.Errorf("the coder's commit %s is still not in the repository: %q %v", commit, out, err)
	}
	m, err := ReadMeta(p, id)
	if err != nil || m.Status != StatusInterrupted {
		t.Errorf("the killed run's record was not settled: %+v %v", m, err)
	}
}

// While the in-place run is still at work its commit's objects are not in
// the repository yet: the error names that run, never "no commits yet",
// and nothing of the live run's is moved.
func TestFindProjectNamesALiveInPlaceRunsCommit(t *testing.T) {
	t.Parallel()

	p, id, _, _ := killedInPlaceRun(t)
	l, err := lockRun(p.RunDir(id))
	if err != nil {
		t.Fatal(err)
	}
	defer l.release()
	_, err = FindProject(context.Background(), p.Root)
	if err == nil {
		t.Fatal("FindProject found a project whose HEAD it cannot read")
	}
	if errors.Is(err, ErrNoCommits) || !strings.Contains(err.Error(), id) || !strings.Contains(err.Error(), "still at work") {
		t.Errorf("the error does not name the live run: %v", err)
	}
	shadow, _ := shadowDir(p, id)
	if st, err := os.Stat(shadow + ".objects"); err != nil || !st.IsDir() {
		t.Error("the live run's scratch object dir was taken away")
	}
}

// A repository with no commit at all is still "no commits yet".
func TestFindProjectNoCommitsYet(t *testing.T) {
	t.Parallel()

	root, _ := filepath.EvalSymlinks(t.TempDir())
	refsGit(t, root, "init", "-q", "-b", "main")
	if _, err := FindProject(context.Background(), root); !errors.Is(err, ErrNoCommits) {
		t.Errorf("an empty repository: %v, want ErrNoCommits", err)
	}
}

package runner

import (
	"bytes"
	"compress/zlib"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// killedInPlaceRun leaves what an in-place run killed with -9 leaves: a
// meta that says running, the coder's commit on the person's branch, and
// its objects only in the run's scratch object dir (plus a loose object
// whose content is not its name). It returns the commit and the forged
// object's name.
func killedInPlaceRun(t *testing.T) (p *Project, id, commit, forged string) {
	t.Helper()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	refsGit(t, root, "init", "-q", "-b", "main")
	writeTestFile(t, filepath.Join(root, "a"), "1\n")
	refsGit(t, root, "add", "a")
	refsGit(t, root, "commit", "-qm", "one")
	p = &Project{Root: root, GitDir: filepath.Join(root, ".git")}
	id = NewRunID(time.Now())
	shadow, err := shadowDir(p, id)
	if err != nil {
		t.Fatal(err)
	}
	scratch := shadow + ".objects"
	if err := os.MkdirAll(filepath.Join(scratch, "pack"), 0o755); err != nil {
		t.Fatal(err)
	}
	// The coder's commit, written as its git would inside: new objects to
	// the scratch dir, the project's store as an alternate, the ref moved.
	writeTestFile(t, filepath.Join(root, "a"), "coder's\n")
	c := exec.Command("git", "-c", "user.name=c", "-c", "user.email=c@c", "commit", "-qam", "the coder's")
	c.Dir = root
	c.Env = append(os.Environ(), "GIT_OBJECT_DIRECTORY="+scratch, "GIT_ALTERNATE_OBJECT_DIRECTORIES="+filepath.Join(root, ".git", "objects"))
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("the coder's commit: %v\n%s", err, out)
	}
	c = exec.Command("git", "rev-parse", "HEAD")
	c.Dir = root
	c.Env = append(os.Environ(), "GIT_OBJECT_DIRECTORY="+scratch, "GIT_ALTERNATE_OBJECT_DIRECTORIES="+filepath.Join(root, ".git", "objects"))
	out, err := c.Output()
	if err != nil {
		t.Fatal(err)
	}
	commit = strings.TrimSpace(string(out))
	// A forged loose object: a name that is not its content's hash.
	forged = "ab" + strings.Repeat("0", 38)
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write([]byte("blob 5\x00evil\n"))
	zw.Close()
	writeTestFile(t, filepath.Join(scratch, "ab", strings.Repeat("0", 38)), z.String())
	if err := os.MkdirAll(p.RunDir(id), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := writeMeta(p.RunDir(id), &Meta{ID: id, Status: StatusRunning, InPlace: true, Started: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	return p, id, commit, forged
}

// A run killed mid-way leaves the coder's commit on the branch and its
// objects outside the repository; the next command's sweep proves them
// and moves them in, so the repository is whole (git fsck passes), keeps
// the forged object out and removes the scratch dir (31.1, kill -9).
func TestKilledInPlaceRunsObjectsAreRecovered(t *testing.T) {
	t.Parallel()

	p, id, commit, forged := killedInPlaceRun(t)
	fsck := func() error {
		c := exec.Command("git", "fsck", "--connectivity-only", "--no-dangling")
		c.Dir = p.Root
		out, err := c.CombinedOutput()
		if err != nil {
			return &exec.ExitError{Stderr: out}
		}
		return nil
	}
	if fsck() == nil {
		t.Fatal("the fixture is not broken: the repository already has the coder's objects")
	}
	SweepStale(context.Background(), p)
	if err := fsck(); err != nil {
		t.Errorf("after the sweep the repository still misses objects its branch points at: %s", err.(*exec.ExitError).Stderr)
	}
	if out, err := exec.Command("git", "-C", p.Root, "cat-file", "-t", commit).Output(); err != nil || strings.TrimSpace(string(out)) != "commit" {
		t.Errorf("the coder's commit %s is not in the repository: %q %v", commit, out, err)
	}
	if _, err := os.Stat(filepath.Join(p.GitDir, "objects", forged[:2], forged[2:])); err == nil {
		t.Error("the forged object was moved into the person's store")
	}
	shadow, _ := shadowDir(p, id)
	if _, err := os.Stat(shadow + ".objects"); err == nil {
		t.Error("the scratch object dir is still there")
	}
	b, _ := os.ReadFile(filepath.Join(p.RunDir(id), "events.jsonl"))
	if !strings.Contains(string(b), "checked and moved in") || !strings.Contains(string(b), "did not match their names") {
		t.Errorf("the run's journal does not tell what the sweep did:\n%s", b)
	}
}

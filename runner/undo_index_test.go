package runner

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/policy"
)

// gitPlaceFixture is a git repository with two committed files and an
// in-place run's checkpoint taken over it, in a state dir of its own.
func gitPlaceFixture(t *testing.T) (*Project, *inPlaceCheckpoint) {
	t.Helper()
	root := t.TempDir()
	gitT(t, root, "init", "-q")
	writeTestFile(t, filepath.Join(root, "a.txt"), "a\n")
	writeTestFile(t, filepath.Join(root, "b.txt"), "b\n")
	gitT(t, root, "add", "-A")
	gitT(t, root, "commit", "-q", "-m", "start")
	p := &Project{Root: root, GitDir: filepath.Join(root, ".git")}
	id := NewRunID(time.Now())
	if err := os.MkdirAll(p.RunDir(id), 0o700); err != nil {
		t.Fatal(err)
	}
	var said []string
	c := takeInPlaceCheckpoint(context.Background(), p, id, "exec: test", checkpointLimitsForTest, func(_ journal.Lane, _ journal.Kind, text string, _ any) { said = append(said, text) })
	if c == nil {
		t.Fatalf("no checkpoint: %v", said)
	}
	return p, c
}

func readIndexT(t *testing.T, p *Project) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(p.GitDir, "index"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A `git status` after the run rewrites the index's stat data (here: a
// file the run did not touch got a new mtime), which changes its bytes
// but not one staged entry: undo still unstages what the coder staged.
func TestUndoIndexAfterAStatOnlyRefresh(t *testing.T) {
	t.Parallel()

	p, c := gitPlaceFixture(t)
	root := p.Root
	writeTestFile(t, filepath.Join(root, "c.txt"), "the coder's\n")
	gitT(t, root, "add", "c.txt")
	if _, _, err := c.end(nil, noEmit); err != nil {
		t.Fatal(err)
	}
	left := readIndexT(t, p)
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(root, "b.txt"), old, old); err != nil {
		t.Fatal(err)
	}
	status := exec.Command("git", "status", "--porcelain") // the person's own git status: it may write the index
	status.Dir = root
	if out, err := status.CombinedOutput(); err != nil {
		t.Fatalf("git status: %v\n%s", err, out)
	}
	if bytes.Equal(readIndexT(t, p), left) {
		t.Fatal("test premise: git status did not rewrite the index")
	}
	if _, err := Undo(context.Background(), p, c.rec.ID, UndoOptions{}); err != nil {
		t.Fatalf("undo after a git status: %v", err)
	}
	if staged := gitT(t, root, "ls-files", "-s"); strings.Contains(staged, "c.txt") {
		t.Errorf("the coder's staging is still in the index:\n%s", staged)
	}
}

// What the person staged after the run is theirs: undo refuses and
// leaves the index alone.
func TestUndoIndexRefusesStagingChangedSince(t *testing.T) {
	t.Parallel()

	p, c := gitPlaceFixture(t)
	root := p.Root
	writeTestFile(t, filepath.Join(root, "c.txt"), "the coder's\n")
	gitT(t, root, "add", "c.txt")
	if _, _, err := c.end(nil, noEmit); err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, filepath.Join(root, "d.txt"), "the person's\n")
	gitT(t, root, "add", "d.txt")
	was := readIndexT(t, p)
	if _, err := Undo(context.Background(), p, c.rec.ID, UndoOptions{}); err == nil || !strings.Contains(err.Error(), "git index changed since") {
		t.Fatalf("staging changed since the run was not refused: %v", err)
	}
	if !bytes.Equal(readIndexT(t, p), was) {
		t.Fatal("the refused undo changed the index")
	}
}

// `undo --to N` puts the index back as it was before call N: what the
// coder staged before N stays staged, what it staged from N on goes.
func TestUndoToPutsTheIndexBackToThePoint(t *testing.T) {
	t.Parallel()

	p, c := gitPlaceFixture(t)
	root := p.Root
	shell := func(cmd string) approvals.Request { return approvals.Request{Kind: policy.KindShell, Command: cmd} }
	c.beforeCall(shell("git add x.txt"), noEmit) // point 1
	writeTestFile(t, filepath.Join(root, "x.txt"), "x\n")
	gitT(t, root, "add", "x.txt")
	c.beforeCall(shell("git add y.txt"), noEmit) // point 2: x staged
	writeTestFile(t, filepath.Join(root, "y.txt"), "y\n")
	gitT(t, root, "add", "y.txt")
	c.beforeCall(shell("true"), noEmit) // point 3: the index as it is now
	if _, _, err := c.end(nil, noEmit); err != nil {
		t.Fatal(err)
	}
	rep, err := Undo(context.Background(), p, c.rec.ID, UndoOptions{To: 2, DryRun: true})
	if err != nil || !strings.Contains(strings.Join(rep.Steps, "\n"), "git index as it was before tool call 2") {
		t.Fatalf("a dry run does not say the index goes back: %v %+v", err, rep)
	}
	if _, err := Undo(context.Background(), p, c.rec.ID, UndoOptions{To: 2}); err != nil {
		t.Fatal(err)
	}
	staged := gitT(t, root, "ls-files", "-s")
	if !strings.Contains(staged, "x.txt") || strings.Contains(staged, "y.txt") {
		t.Errorf("the index is not as it was before call 2:\n%s", staged)
	}
}

// A point whose copy of the index is missing cannot put the index back:
// undo --to refuses, saying what does work, and changes nothing.
func TestUndoToRefusesWithoutThePointsIndex(t *testing.T) {
	t.Parallel()

	p, c := gitPlaceFixture(t)
	root := p.Root
	c.beforeCall(approvals.Request{Kind: policy.KindShell, Command: "git add x.txt"}, noEmit)
	writeTestFile(t, filepath.Join(root, "x.txt"), "x\n")
	gitT(t, root, "add", "x.txt")
	c.beforeCall(approvals.Request{Kind: policy.KindShell, Command: "true"}, noEmit)
	if _, _, err := c.end(nil, noEmit); err != nil {
		t.Fatal(err)
	}
	dir, err := c.store.RecordDir(c.rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, pointIndexName(2))); err != nil {
		t.Fatalf("no copy of the index at point 2: %v", err)
	}
	_, err = Undo(context.Background(), p, c.rec.ID, UndoOptions{To: 2})
	if err == nil || !strings.Contains(err.Error(), "kept no copy of the git index before tool call 2") {
		t.Fatalf("want a refusal naming the missing index copy, got %v", err)
	}
	if staged := gitT(t, root, "ls-files", "-s"); !strings.Contains(staged, "x.txt") {
		t.Errorf("the refused undo changed the index:\n%s", staged)
	}
}

// A run that staged nothing needs no copy of the index at a point: undo
// --to of such a run (one kept before points had copies) is not refused.
func TestUndoToWithoutThePointsIndexOfARunThatStagedNothing(t *testing.T) {
	t.Parallel()

	p, c := gitPlaceFixture(t)
	c.beforeCall(approvals.Request{Kind: policy.KindShell, Command: "echo x > x.txt"}, noEmit)
	writeTestFile(t, filepath.Join(p.Root, "x.txt"), "x\n")
	if _, _, err := c.end(nil, noEmit); err != nil {
		t.Fatal(err)
	}
	rec, err := CheckpointPoints(p, c.rec.ID)
	if err != nil || len(rec.Points) != 1 || rec.Points[0].Index != indexBefore {
		t.Fatalf("the point shares the run's first index copy: %+v %v", rec, err)
	}
	dir, _ := c.store.RecordDir(c.rec.ID)
	rec.Points[0].Index = "" // as a record kept before points had copies
	if err := c.store.SaveRecord(rec); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, pointIndexName(1))); err == nil {
		t.Fatal("test premise: a copy at point 1 exists")
	}
	if _, err := Undo(context.Background(), p, c.rec.ID, UndoOptions{To: 1}); err != nil {
		t.Fatalf("undo --to of a run that staged nothing: %v", err)
	}
	if _, err := os.Stat(filepath.Join(p.Root, "x.txt")); err == nil {
		t.Error("x.txt (made after point 1) is still there")
	}
}

package runner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// reflogPlace is a repository with one commit of the person's and a guard
// started on it; coder runs git as the coder's git does in place (its new
// objects in the scratch object dir).
func reflogPlace(t *testing.T) (root string, g *gitGuard, coder func(args ...string) string) {
	t.Helper()
	root, _ = filepath.EvalSymlinks(t.TempDir())
	gitInit(t, root)
	os.WriteFile(filepath.Join(root, "a"), []byte("a\n"), 0o644)
	gitRun(t, root, "add", "a")
	gitRun(t, root, "commit", "-qm", "one")
	p := &Project{Root: root, GitDir: filepath.Join(root, ".git")}
	g, err := newGitGuard(p, filepath.Join(t.TempDir(), "run.git"))
	if err != nil {
		t.Fatal(err)
	}
	coder = func(args ...string) string {
		t.Helper()
		c := exec.Command("git", append([]string{"-c", "user.name=C", "-c", "user.email=c@c"}, args...)...)
		c.Dir = root
		c.Env = append(os.Environ(), "GIT_OBJECT_DIRECTORY="+g.Objects, "GIT_ALTERNATE_OBJECT_DIRECTORIES="+p.ObjectsDir())
		out, err := c.Output()
		if err != nil {
			t.Fatalf("the coder's git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	return root, g, coder
}

func finishTold(g *gitGuard) string {
	var told []string
	g.finish(context.Background(), nil, func(_ journal.Lane, _ journal.Kind, s string, _ any) { told = append(told, s) })
	return strings.Join(told, "\n")
}

// Issue 31's decision: the coder's ordinary commits on the checked-out
// branch are told once, on the branch's line ("2 commit(s) the coder
// made"), not again as new reflog entries of HEAD and the branch; an
// ORIG_HEAD pointed at the coder's commit is still named.
func TestInPlaceFoldsOrdinaryCommitsIntoTheBranchLine(t *testing.T) {
	t.Parallel()
	root, g, coder := reflogPlace(t)
	gd := filepath.Join(root, ".git")
	for _, s := range []string{"two", "three"} {
		os.WriteFile(filepath.Join(root, "a"), []byte(s+"\n"), 0o644)
		coder("commit", "-qam", s)
	}
	id := coder("rev-parse", "HEAD")
	branch := coder("symbolic-ref", "HEAD")
	os.WriteFile(filepath.Join(gd, "ORIG_HEAD"), []byte(id+"\n"), 0o644)
	all := finishTold(g)
	if w := "new " + filepath.Join(gd, "ORIG_HEAD") + " — now points to " + id + " (an object the coder made)"; !strings.Contains(all, w) {
		t.Errorf("not named: %q\n%s", w, all)
	}
	if strings.Contains(all, "reflog entries") {
		t.Errorf("the ordinary commits' reflog lines are named on their own:\n%s", all)
	}
	moves, err := g.refMoves(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var line string
	for _, m := range moves {
		if m.Ref == branch {
			line = m.String()
		}
	}
	if !strings.Contains(line, "2 commit(s) the coder made on your checked-out branch") {
		t.Errorf("the branch's line does not count the coder's commits: %q (moves %+v)", line, moves)
	}
}

// Reflog lines that are not the coder's ordinary commits on the branch
// checked out are still named with what they point to: a commit on
// another branch and the checkouts there and back, and a line written
// into HEAD's reflog by hand pointing at a blob the coder made.
func TestInPlaceNamesReflogEntriesThatAreNotOrdinaryCommits(t *testing.T) {
	t.Parallel()
	root, g, coder := reflogPlace(t)
	gd := filepath.Join(root, ".git")
	branch := coder("symbolic-ref", "--short", "HEAD")
	coder("checkout", "-q", "-b", "side")
	os.WriteFile(filepath.Join(root, "a"), []byte("side\n"), 0o644)
	coder("commit", "-qam", "side")
	side := coder("rev-parse", "HEAD")
	coder("checkout", "-q", branch)
	all := finishTold(g)
	for _, w := range []string{
		filepath.Join(gd, "logs", "HEAD") + " — 3 new reflog entries, pointing to " + side + " (an object the coder made)",
		"new " + filepath.Join(gd, "logs", "refs", "heads", "side") + " — 2 new reflog entries, pointing to " + side,
	} {
		if !strings.Contains(all, w) {
			t.Errorf("not named: %q\n%s", w, all)
		}
	}

	root, g, coder = reflogPlace(t)
	gd = filepath.Join(root, ".git")
	head := coder("rev-parse", "HEAD")
	blob := coder("hash-object", "-w", "--stdin")
	f, err := os.OpenFile(filepath.Join(gd, "logs", "HEAD"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(head + " " + blob + " C <c@c> 1700000000 +0000\tcommit: looks ordinary\n")
	f.Close()
	if all := finishTold(g); !strings.Contains(all, filepath.Join(gd, "logs", "HEAD")+" — 1 new reflog entries, pointing to "+blob+" (an object the coder made)") {
		t.Errorf("a forged commit line in HEAD's reflog is not named:\n%s", all)
	}
}

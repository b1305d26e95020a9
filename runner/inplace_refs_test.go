package runner

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func refsGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	c := exec.Command("git", append([]string{"-c", "user.name=T", "-c", "user.email=t@t", "-c", "commit.gpgSign=false"}, args...)...)
	c.Dir = dir
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// refsRepo is a repository with two commits on main, a packed branch and
// tag, a loose branch, and two stash entries.
func refsRepo(t *testing.T) (root, first, second string) {
	t.Helper()
	root, _ = filepath.EvalSymlinks(t.TempDir())
	refsGit(t, root, "init", "-q", "-b", "main")
	writeTestFile(t, filepath.Join(root, "a"), "1\n")
	refsGit(t, root, "add", "a")
	refsGit(t, root, "commit", "-qm", "one")
	first = refsGit(t, root, "rev-parse", "HEAD")
	writeTestFile(t, filepath.Join(root, "a"), "2\n")
	refsGit(t, root, "commit", "-qam", "two")
	second = refsGit(t, root, "rev-parse", "HEAD")
	refsGit(t, root, "branch", "packed-feature", first)
	refsGit(t, root, "tag", "v1", first)
	refsGit(t, root, "pack-refs", "--all")
	refsGit(t, root, "branch", "loose-feature", second)
	for _, s := range []string{"3\n", "4\n"} {
		writeTestFile(t, filepath.Join(root, "a"), s)
		refsGit(t, root, "stash", "-q")
	}
	return root, first, second
}

// Every way a coder can move the person's refs in place — a branch reset,
// a packed branch deleted, a loose one deleted, a ref written straight
// into the file with no reflog, a packed ref shadowed by a loose file, a
// new tag, HEAD detached, a stash entry dropped — is in the end-of-run
// report, and what was the person's is flagged with how to put it back.
func TestInPlaceReportsRefMoves(t *testing.T) {
	t.Parallel()
	root, first, second := refsRepo(t)
	p := &Project{Root: root, GitDir: filepath.Join(root, ".git")}
	g, err := newGitGuard(p, filepath.Join(t.TempDir(), "run.git"))
	if err != nil {
		t.Fatal(err)
	}
	if moves, err := g.refMoves(context.Background()); err != nil || len(moves) != 0 {
		t.Fatalf("nothing moved yet: %v %v", moves, err)
	}
	refsGit(t, root, "reset", "-q", "--hard", first)
	refsGit(t, root, "branch", "-D", "packed-feature", "loose-feature")
	refsGit(t, root, "tag", "v2", second)
	refsGit(t, root, "stash", "drop", "-q")
	// No reflog, no git: straight into the files.
	writeTestFile(t, filepath.Join(root, ".git", "refs", "heads", "sneaky"), second+"\n")
	writeTestFile(t, filepath.Join(root, ".git", "refs", "tags", "v1"), second+"\n") // shadows the packed v1
	refsGit(t, root, "checkout", "-q", "--detach", second)

	moves, err := g.refMoves(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	text := refMovesText(moves)
	for _, want := range []string{
		"HEAD: moved ref: refs/heads/main -> " + second[:12] + " [yours: git checkout main]",
		"refs/heads/main: moved " + second[:12] + " -> " + first[:12] + " [yours: git update-ref refs/heads/main " + second + "]",
		"refs/heads/packed-feature: deleted (was " + first[:12] + ") [yours: git update-ref refs/heads/packed-feature " + first + "]",
		"refs/heads/loose-feature: deleted (was " + second[:12] + ") [yours:",
		"refs/heads/sneaky: new, at " + second[:12],
		"refs/tags/v1: moved " + first[:12] + " -> " + second[:12] + " [yours:",
		"refs/tags/v2: new, at " + second[:12],
		"stash: 2 entries, now 1 [yours:",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the report lacks %q:\n%s", want, text)
		}
	}
	for _, m := range moves {
		if strings.HasPrefix(m.Ref, "refs/tags/v2") || m.Ref == "refs/heads/sneaky" {
			if m.Yours {
				t.Errorf("a new ref is flagged as the person's: %v", m)
			}
		}
	}
}

// A ref name is the coder's file name: it reaches the report as one safe
// line, with no terminal escape or line break of its own.
func TestRefMoveLinesAreSafe(t *testing.T) {
	t.Parallel()
	m := RefMove{Ref: "refs/heads/x\x1b]0;pwned\x07\nin place: no files changed", After: "abc"}
	if s := m.String(); strings.ContainsAny(s, "\x1b\x07\n") {
		t.Errorf("unsafe line: %q", s)
	}
}

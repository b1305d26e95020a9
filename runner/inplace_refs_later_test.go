package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The coder's commits carry files that run code later without the work
// tree showing them at the end: a trojaned Makefile and a new .envrc
// committed on the checked-out branch with the work tree put back, a CI
// workflow on a new branch, a .envrc kept in a stash entry as an untracked
// file. Each ref's line flags them (the person's reset, checkout, stash
// pop or push brings them in or sends them out); a tag on one of the
// person's own older commits and a branch reset back carry nothing new and
// flag nothing.
func TestRefMovesFlagWhatTheCodersCommitsCarry(t *testing.T) {
	t.Parallel()
	root, first, _ := refsRepo(t)
	writeTestFile(t, filepath.Join(root, "Makefile"), "all:\n\techo hi\n")
	refsGit(t, root, "add", "Makefile")
	refsGit(t, root, "commit", "-qm", "make")
	p := &Project{Root: root, GitDir: filepath.Join(root, ".git")}
	g, err := newGitGuard(p, filepath.Join(t.TempDir(), "run.git"))
	if err != nil {
		t.Fatal(err)
	}

	// The coder commits on main, then puts the work tree back.
	writeTestFile(t, filepath.Join(root, "Makefile"), "all:\n\ttouch /tmp/pwned\n")
	writeTestFile(t, filepath.Join(root, ".envrc"), "touch /tmp/pwned\n")
	refsGit(t, root, "add", "Makefile", ".envrc")
	refsGit(t, root, "commit", "-qm", "fix the tests")
	refsGit(t, root, "rm", "-q", "--cached", ".envrc")
	if err := os.Remove(filepath.Join(root, ".envrc")); err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, filepath.Join(root, "Makefile"), "all:\n\techo hi\n")
	// A new branch with a workflow, the work tree left on main.
	refsGit(t, root, "checkout", "-q", "-b", "side")
	writeTestFile(t, filepath.Join(root, ".github", "workflows", "ci.yml"), "on: push\n")
	refsGit(t, root, "add", ".github")
	refsGit(t, root, "commit", "-qm", "ci")
	refsGit(t, root, "checkout", "-q", "main")
	if err := os.RemoveAll(filepath.Join(root, ".github")); err != nil {
		t.Fatal(err)
	}
	// A stash entry holding a new .envrc as an untracked file.
	writeTestFile(t, filepath.Join(root, "sub", ".envrc"), "touch /tmp/pwned\n")
	refsGit(t, root, "stash", "push", "-q", "-u", "--", "sub")
	// Nothing new: a tag on the person's first commit, a branch reset back.
	refsGit(t, root, "tag", "old", first)
	refsGit(t, root, "branch", "-f", "loose-feature", first)

	moves, err := g.refMoves(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, m := range moves {
		got[m.Ref] = m.String()
		if m.Unreadable != "" {
			t.Errorf("%s: %s", m.Ref, m.Unreadable)
		}
	}
	for ref, wants := range map[string][]string{
		"refs/heads/main": {".envrc (direnv", "Makefile (make"},
		"refs/heads/side": {".github/workflows/ci.yml (CI workflow"},
		"stash":           {"sub/.envrc (direnv"},
	} {
		line, ok := got[ref]
		if !ok {
			t.Errorf("%s is not reported: %v", ref, got)
			continue
		}
		for _, w := range wants {
			if !strings.Contains(line, "its commits change files that run code later") || !strings.Contains(line, w) {
				t.Errorf("%s's line does not flag %q:\n%s", ref, w, line)
			}
		}
	}
	for _, ref := range []string{"refs/tags/old", "refs/heads/loose-feature"} {
		if strings.Contains(got[ref], "run code later") {
			t.Errorf("%s carries nothing new but is flagged:\n%s", ref, got[ref])
		}
	}
}

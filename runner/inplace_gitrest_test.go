package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// Whatever the coder leaves in the git dir outside what a commit writes is
// named at the end of the run, by what it is not: a MERGE_MSG, an lfs/
// store, a reftable stack in a repository that does not use reftable (git
// 2.39 ignores it; a later git may not), a name nobody listed, a change to
// such an entry the person had; routine writes (a commit, a branch) are
// not named.
func TestInPlaceReportsTheRestOfTheGitDir(t *testing.T) {
	t.Parallel()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	gitInit(t, root)
	os.WriteFile(filepath.Join(root, "a"), []byte("a\n"), 0o644)
	gitRun(t, root, "add", "a")
	gitRun(t, root, "commit", "-qm", "one")
	gd := filepath.Join(root, ".git")
	os.MkdirAll(filepath.Join(gd, "lfs"), 0o755)
	os.WriteFile(filepath.Join(gd, "lfs", "config"), []byte("person\n"), 0o644)
	p := &Project{Root: root, GitDir: gd}
	g, err := newGitGuard(p, filepath.Join(t.TempDir(), "run.git"))
	if err != nil {
		t.Fatal(err)
	}
	// Routine: a commit and a branch.
	os.WriteFile(filepath.Join(root, "a"), []byte("b\n"), 0o644)
	gitRun(t, root, "commit", "-qam", "two")
	gitRun(t, root, "branch", "side")
	for rel, body := range map[string]string{
		"MERGE_MSG":                     "Merge: the coder's words\n",
		"lfs/objects/ab/cd/abcd":        "not the file\n",
		"lfs/config":                    "coder\n",
		"reftable/tables.list":          "0x000000000001-0x000000000001-0.ref\n",
		"sentinel-unknown-name/evil.sh": "touch PWNED\n",
		"zz-left-file":                  "x\n",
	} {
		f := filepath.Join(gd, rel)
		os.MkdirAll(filepath.Dir(f), 0o755)
		if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var told []string
	g.finish(context.Background(), nil, func(_ journal.Lane, _ journal.Kind, s string, _ any) { told = append(told, s) })
	all := strings.Join(told, "\n")
	for _, w := range []string{
		"new " + filepath.Join(gd, "MERGE_MSG") + " — your next `git commit` takes it as its message",
		"new " + filepath.Join(gd, "lfs", "objects") + "/",
		"changed " + filepath.Join(gd, "lfs", "config"),
		"new " + filepath.Join(gd, "reftable") + "/ — a reftable stack in a repository that does not use one",
		"new " + filepath.Join(gd, "sentinel-unknown-name") + "/ (1 entries in it)",
		"new " + filepath.Join(gd, "zz-left-file"),
	} {
		if !strings.Contains(all, w) {
			t.Errorf("not named: %q\n%s", w, all)
		}
	}
	for _, bad := range []string{"COMMIT_EDITMSG", "refs/heads", "ORIG_HEAD", "logs/", filepath.Join(gd, "index")} {
		if strings.Contains(all, bad) {
			t.Errorf("a routine write %q was named:\n%s", bad, all)
		}
	}
}

// In a linked worktree a commit and a branch write to its own git dir and
// the common one: nothing of that is named.
func TestInPlaceReportsNothingForRoutineWorkInALinkedWorktree(t *testing.T) {
	t.Parallel()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	gitInit(t, root)
	os.WriteFile(filepath.Join(root, "a"), []byte("a\n"), 0o644)
	gitRun(t, root, "add", "a")
	gitRun(t, root, "commit", "-qm", "one")
	wt := filepath.Join(root, "..", filepath.Base(root)+"-wt")
	gitRun(t, root, "worktree", "add", "-q", "-b", "wt", wt)
	t.Cleanup(func() { os.RemoveAll(wt) })
	gd := filepath.Join(root, ".git", "worktrees", filepath.Base(wt))
	p := &Project{Root: wt, GitDir: gd}
	g, err := newGitGuard(p, filepath.Join(t.TempDir(), "run.git"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(wt, "a"), []byte("b\n"), 0o644)
	gitRun(t, wt, "commit", "-qam", "two")
	gitRun(t, wt, "branch", "side")
	gitRun(t, wt, "stash", "list")
	var told []string
	g.finish(context.Background(), nil, func(_ journal.Lane, _ journal.Kind, s string, _ any) { told = append(told, s) })
	if all := strings.Join(told, "\n"); strings.Contains(all, "in your git dir") {
		t.Errorf("routine work was named:\n%s", all)
	}
	os.WriteFile(filepath.Join(gd, "MERGE_MSG"), []byte("x\n"), 0o644)
	if lines, _ := g.restChanges(g.rest, g.snapRest(), 50); len(lines) != 1 || !strings.Contains(lines[0], "new "+filepath.Join(gd, "MERGE_MSG")) {
		t.Errorf("a MERGE_MSG in the worktree's own git dir is not named: %q", lines)
	}
}

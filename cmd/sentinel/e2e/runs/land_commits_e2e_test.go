package runs

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// The coder's own commits land as it made them: its messages in order, as
// the person, with Sentinel's trailers, and what it left uncommitted as one
// more commit titled by the task; verification runs on the final tree.
// --squash lands it all as one "sentinel: <task>" commit, as before.
func TestRunLandsTheCodersOwnCommits(t *testing.T) {
	t.Parallel()
	script := `set -e
echo one > one.txt; git add one.txt; git commit -qm "feat: add one" -m "Because the task asks for one."
echo two > two.txt; git add two.txt; git commit -qm "feat: add two"
echo three > three.txt`
	task := "Add the numbers one to three as files\n\nEach in its own file."
	for _, squash := range []bool{false, true} {
		dir := e2etest.ScratchRepo(t)
		home := t.TempDir()
		e2etest.WriteFile(t, filepath.Join(home, ".gitconfig"), "[user]\n\tname = Pat Person\n\temail = pat@example.com\n")
		env := []string{"HOME=" + home, "XDG_CACHE_HOME=" + t.TempDir(), "XDG_STATE_HOME=" + t.TempDir(),
			"GIT_AUTHOR_NAME=", "GIT_AUTHOR_EMAIL=", "GIT_COMMITTER_NAME=", "GIT_COMMITTER_EMAIL=", "GIT_CONFIG_GLOBAL=" + filepath.Join(home, ".gitconfig")}
		args := []string{"run", "--plain", "--coder", "command", "--verify", "test -f one.txt && test -f two.txt && test -f three.txt"}
		if squash {
			args = append(args, "--squash")
		}
		res := e2etest.Sentinel(t, dir, env, append(args, task, "--", "sh", "-c", script)...)
		if res.Code != 0 {
			t.Fatalf("squash=%v: exit %d: %s\n%s", squash, res.Code, res.Stderr, res.Stdout)
		}
		branch := e2etest.Git(t, dir, "branch", "--list", "sentinel/*", "--format=%(refname:short)")
		got := e2etest.Git(t, dir, "log", "--reverse", "--format=%s|%an|%(trailers:key=Sentinel-Run,valueonly)", "main.."+branch)
		run := strings.TrimPrefix(branch, "sentinel/")
		snap := "sentinel: snapshot of uncommitted changes|Sentinel|\n" // scratchRepo's uncommitted changes
		want := snap + "feat: add one|Pat Person|" + run + "\n\nfeat: add two|Pat Person|" + run + "\n\nAdd the numbers one to three as files|Pat Person|" + run
		if squash {
			want = snap + "sentinel: Add the numbers one to three as files …|Pat Person|" + run
		}
		if strings.TrimSpace(got) != want {
			t.Fatalf("squash=%v: landed history:\n%s\nwant:\n%s", squash, got, want)
		}
		last := e2etest.Git(t, dir, "log", "-1", "--format=%B", branch)
		if !strings.Contains(last, "Sentinel-Verified: test -f one.txt") {
			t.Errorf("squash=%v: the last commit does not say what verified it:\n%s", squash, last)
		}
		if files := e2etest.Git(t, dir, "ls-tree", "--name-only", branch); !strings.Contains(files, "three.txt") {
			t.Errorf("squash=%v: the landed tree lacks the uncommitted file:\n%s", squash, files)
		}
		if !squash {
			if body := e2etest.Git(t, dir, "log", "-1", "--format=%b", branch+"~2"); !strings.Contains(body, "Because the task asks for one.") {
				t.Errorf("the first commit's body is lost:\n%s", body)
			}
			if !strings.Contains(last, "Each in its own file.") {
				t.Errorf("the task's rest is not in the last commit's body:\n%s", last)
			}
		}
	}
}

package inplace

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// Issue 31, point 4 under exec: the coder moves a nested repository's .git
// to another directory, and moves it aside (sub/g2), plants core.fsmonitor
// in its config and moves it back; the same with the project's own .git.
// Every git dir present at the start is a read-only mount in the sandbox,
// and a mount point cannot be renamed (EBUSY; to another directory mv gets
// EXDEV and copies, and the copy, a new git dir, is quarantined at once):
// each move is refused, the config is unchanged, and the person's `git
// status` afterwards, in every directory the coder aimed at, runs nothing.
func TestExecCannotMoveAGitDirAwayAndBack(t *testing.T) {
	t.Parallel()
	for _, backend := range inPlaceBackends(t) {
		t.Run(backend, func(t *testing.T) {
			dir := e2etest.ScratchRepo(t)
			committedRepo(t, filepath.Join(dir, "sub"), "lib.txt", "lib\n")
			os.MkdirAll(filepath.Join(dir, "other"), 0o755)
			mark := filepath.Join(t.TempDir(), "PWNED")
			plant := "printf '[core]\\n\\tfsmonitor = touch " + mark + "\\n' >> "
			subGit, topGit := filepath.Join(dir, "sub", ".git"), filepath.Join(dir, ".git")
			before := map[string]string{subGit: treeDigest(t, subGit), filepath.Join(topGit, "config"): fileText(t, filepath.Join(topGit, "config"))}
			script := strings.Join([]string{
				"mv sub/.git other/.git; echo mv1=$?",
				"mv sub/.git sub/g2; echo mv2=$?",
				plant + "sub/g2/config; mv sub/g2 sub/.git",
				plant + "sub/.git/config; echo plant=$?",
				"mv .git g3; echo mv3=$?",
				plant + "g3/config; mv g3 .git",
				"true",
			}, "; ")
			res := e2etest.Sentinel(t, dir, nil, "exec", "--plain", "--sandbox", backend, "--", "sh", "-c", script)
			if res.Code != 0 {
				t.Fatalf("exit %d\nstderr: %s\nstdout:\n%s", res.Code, res.Stderr, res.Stdout)
			}
			for _, w := range []string{"mv1=0", "mv2=0", "mv3=0", "plant=0"} {
				if strings.Contains(res.Stdout, w) {
					t.Errorf("a move or write of a git dir was not refused in the sandbox (%s):\n%s\n%s", w, res.Stdout, res.Stderr)
				}
			}
			// mv across the mount falls back to a copy: the new .git it
			// makes is quarantined as soon as it appears.
			if out := res.Stdout + res.Stderr; !strings.Contains(out, "quarantined") || !strings.Contains(out, filepath.Join(dir, "other", ".git")) {
				t.Errorf("the copy mv made of the git dir is not named as quarantined:\n%s", out)
			}
			if after := treeDigest(t, subGit); after != before[subGit] {
				t.Errorf("the nested repository's git dir changed:\nbefore:\n%s\nafter:\n%s", before[subGit], after)
			}
			if after := fileText(t, filepath.Join(topGit, "config")); after != before[filepath.Join(topGit, "config")] {
				t.Errorf("the project's git config changed:\n%s", after)
			}
			mustNotExist(t, "a moved git dir", filepath.Join(dir, "other", ".git"), filepath.Join(dir, "sub", "g2"), filepath.Join(dir, "g3"))
			// The person's own git, unhardened, where the coder aimed.
			for _, d := range []string{dir, filepath.Join(dir, "sub"), filepath.Join(dir, "other")} {
				cmd := exec.Command("git", "status", "--short")
				cmd.Dir = d
				cmd.CombinedOutput()
			}
			if _, err := os.Stat(mark); err == nil {
				t.Fatal("the planted core.fsmonitor ran on the host")
			}
		})
	}
}

func fileText(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

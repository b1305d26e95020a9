package inplace

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// The coder's scratch object dir is the coder's: a pack dir in it that is
// a link to the project's own objects/pack is not followed when the run's
// objects are moved in. Followed, the mover found the person's packs
// "in the scratch dir", judged them present in the store and removed
// them through the link: after `git gc` every commit was gone (HEAD a bad
// object) and exec said "no files changed".
func TestExecScratchPackLinkRemovesNoPack(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	e2etest.Git(t, dir, "gc", "-q")
	packs, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "pack-*"))
	if len(packs) < 2 {
		t.Fatalf("git gc made no pack: %v", packs)
	}
	env := append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir(), "XDG_CACHE_HOME="+t.TempDir(), "HOME="+t.TempDir(), "NO_COLOR=1")
	script := `rmdir "$GIT_OBJECT_DIRECTORY/pack" && ln -s "$PWD/.git/objects/pack" "$GIT_OBJECT_DIRECTORY/pack" && test -L "$GIT_OBJECT_DIRECTORY/pack"`
	cmd := exec.Command(e2etest.Bin, "exec", "--plain", "--", "/bin/sh", "-c", script)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("sentinel exec (the coder could not plant its link?): %v\n%s", err, out)
	}
	for _, p := range packs {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("the person's %s is gone after the run: %v\n%s", filepath.Base(p), err, out)
		}
	}
	c := exec.Command("git", "fsck", "--connectivity-only", "--no-dangling")
	c.Dir = dir
	if fo, err := c.CombinedOutput(); err != nil {
		t.Errorf("the repository is broken after the run: %v\n%s", err, fo)
	}
}

package runner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommittedStateAdviceLeavesNothingOfTheCoders follows the refusal's
// advice literally after a merge brought committed .sentinel/ files into
// the person's checkout: afterwards none of those files is left, in the
// index or the working tree, the person's untracked runs are still there,
// and the check passes.
func TestCommittedStateAdviceLeavesNothingOfTheCoders(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := dirtyRepo(t)
	gitT(t, p.Root, "add", "-A")
	gitT(t, p.Root, "commit", "-qm", "person's work")
	write(t, filepath.Join(p.StateDir(), "runs", "r0", "events.jsonl"), "{}\n")
	write(t, filepath.Join(p.StateDir(), "config.toml"), "# the person's own\n")
	if err := p.CheckStateUntracked(ctx); err != nil {
		t.Fatalf("an ignored .sentinel/ was refused: %v", err)
	}
	// A branch carrying .sentinel/ files, made elsewhere and merged.
	gitT(t, p.Root, "checkout", "-q", "-b", "shipped")
	for _, f := range []string{".sentinel/config.toml", ".sentinel/templates.toml", ".SENTINEL/policy.toml"} {
		write(t, filepath.Join(p.Root, f), "# shipped by the repository\n")
		gitT(t, p.Root, "add", "-f", f)
	}
	gitT(t, p.Root, "commit", "-qm", "ship sentinel state")
	gitT(t, p.Root, "checkout", "-q", "-")
	gitT(t, p.Root, "merge", "-q", "shipped")

	err := p.CheckStateUntracked(ctx)
	if err == nil {
		t.Fatal("committed .sentinel/ files were not refused")
	}
	msg := err.Error()
	_, rest, ok := strings.Cut(msg, " with: ")
	cmdline, _, ok2 := strings.Cut(rest, " — ")
	if !ok || !ok2 {
		t.Fatalf("no command in the advice: %s", msg)
	}
	sh := exec.Command("sh", "-c", cmdline)
	sh.Dir = p.Root
	sh.Env = append(gitEnv(), "GIT_AUTHOR_NAME=P", "GIT_AUTHOR_EMAIL=p@p", "GIT_COMMITTER_NAME=P", "GIT_COMMITTER_EMAIL=p@p")
	if out, err := sh.CombinedOutput(); err != nil {
		t.Fatalf("the advice %q failed: %v\n%s", cmdline, err, out)
	}
	for _, f := range []string{".sentinel/config.toml", ".sentinel/templates.toml", ".SENTINEL/policy.toml"} {
		if b, err := os.ReadFile(filepath.Join(p.Root, f)); err == nil && strings.Contains(string(b), "shipped") {
			t.Errorf("after the advice %s still holds the repository's file", f)
		}
	}
	if tracked := gitT(t, p.Root, "ls-files", "--", ".sentinel", ".SENTINEL"); tracked != "" {
		t.Errorf("still tracked: %s", tracked)
	}
	if _, err := os.Stat(filepath.Join(p.StateDir(), "runs", "r0", "events.jsonl")); err != nil {
		t.Errorf("the person's own run state went too: %v", err)
	}
	if err := p.CheckStateUntracked(ctx); err != nil {
		t.Errorf("after the advice: %v", err)
	}
}

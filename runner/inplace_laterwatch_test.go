package runner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/poll"
)

// A rebase left stopped with an exec line, renamed into the git dir whole
// while the run goes on, and a MERGE_HEAD written there, are moved into
// the quarantine at once (not at the end of the run: the person's `git
// rebase --continue` in another terminal would run the exec line), and
// each is told as DANGEROUS with its exec line and where it went. A real
// `git rebase -i` stopped at `break` is taken out the same way.
func TestWatchTakesOutALeftOverRebaseAtOnce(t *testing.T) {
	t.Parallel()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	gitInit(t, root)
	os.WriteFile(filepath.Join(root, "a"), []byte("a\n"), 0o644)
	gitRun(t, root, "add", "a")
	gitRun(t, root, "commit", "-qm", "one")
	os.WriteFile(filepath.Join(root, "a"), []byte("b\n"), 0o644)
	gitRun(t, root, "commit", "-qam", "two")
	p := &Project{Root: root, GitDir: filepath.Join(root, ".git")}
	g, err := newGitGuard(p, filepath.Join(t.TempDir(), "run.git"))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var told []string
	stop := g.start(context.Background(), func(_ journal.Lane, _ journal.Kind, s string, _ any) {
		mu.Lock()
		told = append(told, s)
		mu.Unlock()
	})
	t.Cleanup(stop)

	staged := filepath.Join(root, "staged")
	os.MkdirAll(staged, 0o755)
	os.WriteFile(filepath.Join(staged, "git-rebase-todo"), []byte("exec touch PWNED\n"), 0o644)
	os.WriteFile(filepath.Join(staged, "orig-head"), []byte("0123456789abcdef0123456789abcdef01234567\n"), 0o644)
	planted := filepath.Join(p.GitDir, "rebase-merge")
	if err := os.Rename(staged, planted); err != nil {
		t.Fatal(err)
	}
	waitGone(t, planted)
	merge := filepath.Join(p.GitDir, "MERGE_HEAD")
	os.WriteFile(merge, []byte("0123456789abcdef0123456789abcdef01234567\n"), 0o644)
	waitGone(t, merge)

	// The coder's own interactive rebase, stopped at break.
	cmd := exec.Command("git", "-C", root, "-c", "user.name=A", "-c", "user.email=a@example.com", "rebase", "-i", "HEAD~1")
	cmd.Env = append(os.Environ(), "GIT_SEQUENCE_EDITOR=sed -i '1i break'")
	cmd.CombinedOutput() // it may fail, its state taken from under it
	waitGone(t, planted)
	stop()

	mu.Lock()
	all := strings.Join(told, "\n")
	mu.Unlock()
	for _, w := range []string{"DANGEROUS: a left-over rebase", "touch PWNED", "during the run and was moved at once into " + g.Quarantine, "MERGE_HEAD"} {
		if !strings.Contains(all, w) {
			t.Errorf("not told %q:\n%s", w, all)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(g.Quarantine, "*rebase-merge")); len(m) < 2 {
		t.Errorf("the rebase states are not kept in the quarantine: %v", m)
	}
	if _, err := os.Stat(filepath.Join(root, "PWNED")); err == nil {
		t.Error("the exec line ran")
	}
}

// A replace ref the coder writes into packed-refs while the run goes on
// (git writes packed-refs aside and renames it into place) is deleted as
// soon as the watch sees it, told as DANGEROUS with how to put it back,
// and recorded in the quarantine.
func TestWatchDeletesAPackedReplaceRefAtOnce(t *testing.T) {
	t.Parallel()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	gitInit(t, root)
	os.WriteFile(filepath.Join(root, "Makefile"), []byte("all:\n\ttrue\n"), 0o644)
	gitRun(t, root, "add", "Makefile")
	gitRun(t, root, "commit", "-qm", "one")
	blob := gitRun(t, root, "rev-parse", "HEAD:Makefile")
	evil := filepath.Join(root, "evil")
	os.WriteFile(evil, []byte("all:\n\ttouch PWNED\n"), 0o644)
	ev := gitRun(t, root, "hash-object", "-w", evil)
	p := &Project{Root: root, GitDir: filepath.Join(root, ".git")}
	g, err := newGitGuard(p, filepath.Join(t.TempDir(), "run.git"))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var told []string
	stop := g.start(context.Background(), func(_ journal.Lane, _ journal.Kind, s string, _ any) {
		mu.Lock()
		told = append(told, s)
		mu.Unlock()
	})
	t.Cleanup(stop)
	packed := filepath.Join(p.GitDir, "packed-refs")
	os.WriteFile(packed+".new", []byte("# pack-refs with: peeled fully-peeled sorted \n"+ev+" refs/replace/"+blob+"\n"), 0o644)
	if err := os.Rename(packed+".new", packed); err != nil {
		t.Fatal(err)
	}
	var b []byte
	if !poll.Until(20*time.Second, func() bool { // a hang bound only
		b, _ = os.ReadFile(packed)
		return !strings.Contains(string(b), "refs/replace/")
	}) {
		t.Fatalf("the replace ref is still in packed-refs while the run goes on:\n%s", b)
	}
	stop()
	mu.Lock()
	all := strings.Join(told, "\n")
	mu.Unlock()
	if w := "git update-ref refs/replace/" + blob + " " + ev; !strings.Contains(all, "DANGEROUS") || !strings.Contains(all, w) {
		t.Errorf("not told as dangerous with %q:\n%s", w, all)
	}
	if m, _ := filepath.Glob(filepath.Join(g.Quarantine, "*refs_replace_"+blob)); len(m) != 1 {
		t.Errorf("the deleted ref is not recorded in the quarantine: %v", m)
	}
}

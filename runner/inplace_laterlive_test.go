package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// A MERGE_HEAD, a rebase todo and a sequencer todo the person had at the
// start, rewritten in place by the coder (same file, new content) or added
// to, are taken out while the run goes on, as a new one is: not only at
// the end, when the person's `git rebase --continue` in another terminal
// could already have run the planted exec line.
func TestWatchTakesOutARewrittenRebaseStateAtOnce(t *testing.T) {
	t.Parallel()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	gitInit(t, root)
	gd := filepath.Join(root, ".git")
	id := "0123456789abcdef0123456789abcdef01234567\n"
	for rel, body := range map[string]string{
		"MERGE_HEAD":                   id,
		"rebase-merge/git-rebase-todo": "pick 0123456 one\n",
		"rebase-merge/orig-head":       id,
		"sequencer/todo":               "pick 0123456 one\n",
	} {
		p := filepath.Join(gd, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := &Project{Root: root, GitDir: gd}
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

	rewrite := func(rel, body string, flag int) {
		f, err := os.OpenFile(filepath.Join(gd, rel), flag, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(body)
		f.Close()
	}
	rewrite("rebase-merge/git-rebase-todo", "exec touch PWNED\n", os.O_WRONLY|os.O_APPEND)
	waitGone(t, filepath.Join(gd, "rebase-merge"))
	rewrite("MERGE_HEAD", "fedcba9876543210fedcba9876543210fedcba98\n", os.O_WRONLY|os.O_TRUNC)
	waitGone(t, filepath.Join(gd, "MERGE_HEAD"))
	rewrite("sequencer/done", "exec touch PWNED\n", os.O_WRONLY|os.O_CREATE)
	waitGone(t, filepath.Join(gd, "sequencer"))
	stop()

	mu.Lock()
	all := strings.Join(told, "\n")
	mu.Unlock()
	for _, w := range []string{"DANGEROUS: a left-over rebase", "touch PWNED", "rebase-merge was changed during the run and was moved at once into " + g.Quarantine, "MERGE_HEAD was changed during the run", "sequencer was changed"} {
		if !strings.Contains(all, w) {
			t.Errorf("not told %q:\n%s", w, all)
		}
	}
}

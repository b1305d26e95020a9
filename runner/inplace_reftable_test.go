package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/gitdir"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/poll"
)

// reftableFixtures are git 2.55's reftable stacks (internal/gitdir's
// testdata/reftable/make.sh).
const reftableFixtures = "../internal/gitdir/testdata/reftable"

// In a reftable repository, as a host git that has reftable finds it (Debian
// 12's 2.39 takes it for no repository at all, and exec then mounts its .git
// read-only whole): the refs at the start are recorded from the tables, and
// a replace ref the coder writes into the stack during the run is told as
// DANGEROUS as soon as the new tables.list is renamed into place, naming
// the ref; a branch the coder deletes is in the end's ref moves.
func TestInPlaceSeesAReplaceRefInReftable(t *testing.T) {
	t.Parallel()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	gd := filepath.Join(root, ".git")
	copyTreeT(t, filepath.Join(reftableFixtures, "before"), gd)
	os.MkdirAll(filepath.Join(gd, "objects"), 0o755)
	p := &Project{Root: root, GitDir: gd}
	g, err := newGitGuard(p, filepath.Join(t.TempDir(), "run.git"))
	if err != nil {
		t.Fatal(err)
	}
	if g.refsErr != nil || g.refs == nil || !g.refs.Reftable || g.refs.Refs["refs/heads/keep"] == "" {
		t.Fatalf("the refs at the start were not read from the tables: %v %+v", g.refsErr, g.refs)
	}
	var mu sync.Mutex
	var told []string
	emit := func(_ journal.Lane, _ journal.Kind, s string, _ any) {
		mu.Lock()
		told = append(told, s)
		mu.Unlock()
	}
	stop := g.start(context.Background(), emit)
	t.Cleanup(stop)

	after := filepath.Join(reftableFixtures, "replaced")
	want, err := gitdir.ReadRefs(after, after)
	if err != nil {
		t.Fatal(err)
	}
	var ref string
	for r := range want.Refs {
		if strings.HasPrefix(r, "refs/replace/") {
			ref = r
		}
	}
	tables, _ := filepath.Glob(filepath.Join(after, "reftable", "*.ref"))
	for _, f := range tables {
		b, _ := os.ReadFile(f)
		os.WriteFile(filepath.Join(gd, "reftable", filepath.Base(f)), b, 0o644)
	}
	list, _ := os.ReadFile(filepath.Join(after, "reftable", "tables.list"))
	os.WriteFile(filepath.Join(gd, "reftable", "tables.list.lock"), list, 0o644)
	if err := os.Rename(filepath.Join(gd, "reftable", "tables.list.lock"), filepath.Join(gd, "reftable", "tables.list")); err != nil {
		t.Fatal(err)
	}
	var all string
	if !poll.Until(20*time.Second, func() bool { // a hang bound only
		mu.Lock()
		all = strings.Join(told, "\n")
		mu.Unlock()
		return strings.Contains(all, "DANGEROUS") && strings.Contains(all, "the replace ref "+ref+" (in reftable)")
	}) {
		t.Fatalf("the replace ref %s was not told while the run went on:\n%s", ref, all)
	}
	stop()
	moves, err := g.refMoves(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	deleted := strings.Contains(strings.Join(told, "\n"), "— deleted") // a host git that has reftable
	mu.Unlock()
	if text := refMovesText(moves); !deleted && !strings.Contains(text, ref+": new") {
		t.Errorf("the end's ref moves do not name %s:\n%s", ref, text)
	}
}

func copyTreeT(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
}

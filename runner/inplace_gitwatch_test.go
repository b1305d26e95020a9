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

	"github.com/sentinelhq/sentinel/internal/poll"
)

// guardFor starts a gitGuard's watch over a fresh repository with a nested
// one, and collects what it tells.
func guardFor(t *testing.T) (p *Project, g *gitGuard, told func() []string, stop func()) {
	t.Helper()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	gitInit(t, root)
	gitInit(t, filepath.Join(root, "vendor", "old"))
	os.WriteFile(filepath.Join(root, ".git", "config.worktree"), []byte("[core]\n"), 0o644) // the person's own
	p = &Project{Root: root, GitDir: filepath.Join(root, ".git")}
	g, err := newGitGuard(p, filepath.Join(t.TempDir(), "run.git"))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []string
	stop, warn := g.watch(context.Background(), func(f string) {
		mu.Lock()
		got = append(got, f)
		mu.Unlock()
	})
	if warn != nil {
		t.Fatal(warn)
	}
	t.Cleanup(stop)
	return p, g, func() []string { mu.Lock(); defer mu.Unlock(); return append([]string{}, got...) }, stop
}

func gitInit(t *testing.T, dir string) {
	t.Helper()
	os.MkdirAll(dir, 0o755)
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
}

// A commondir or config.worktree planted at the top of the git dir during
// the run is gone without waiting for the run to end, whether written or
// renamed into place, and kept in the quarantine; one the project had
// before is left alone.
func TestWatchGitPlantedRemovesAtOnce(t *testing.T) {
	t.Parallel()
	p, g, told, stop := guardFor(t)
	gitDir := p.GitDir
	planted := filepath.Join(gitDir, "commondir")
	if err := os.WriteFile(planted, []byte("../evil\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitGone(t, planted)
	staged := filepath.Join(gitDir, "objects", "x")
	os.WriteFile(staged, []byte("../evil\n"), 0o644)
	if err := os.Rename(staged, planted); err != nil {
		t.Fatal(err)
	}
	waitGone(t, planted)
	os.WriteFile(filepath.Join(gitDir, "ORIG_HEAD"), []byte("x\n"), 0o644) // git's own files stay
	stop()
	if _, err := os.Stat(filepath.Join(gitDir, "config.worktree")); err != nil {
		t.Errorf("the project's own config.worktree was removed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(gitDir, "ORIG_HEAD")); err != nil {
		t.Errorf("git's own file was removed: %v", err)
	}
	if got := told(); len(got) != 2 || got[0] != planted {
		t.Errorf("removals told: %v, want %s twice", got, planted)
	}
	if m, _ := filepath.Glob(filepath.Join(g.Quarantine, "*commondir")); len(m) != 2 {
		t.Errorf("the planted files are not kept in the quarantine: %v", m)
	}
}

// A repository the coder makes anywhere under the place (git init in a new
// directory, a .git file naming a git dir it wrote, a git dir by content
// under another name) is moved out at once; the nested repository the
// place had stays.
func TestWatchQuarantinesNewGitDirsAnywhere(t *testing.T) {
	t.Parallel()
	p, g, told, stop := guardFor(t)
	lib := filepath.Join(p.Root, "vendor", "lib")
	os.MkdirAll(lib, 0o755)
	_ = exec.Command("git", "init", "-q", lib).Run() // fails when the watch is quick enough
	waitGone(t, filepath.Join(lib, ".git"))

	deep := filepath.Join(p.Root, "a", "b", "c")
	os.MkdirAll(deep, 0o755)
	os.WriteFile(filepath.Join(deep, ".git"), []byte("gitdir: /somewhere/else\n"), 0o644)
	waitGone(t, filepath.Join(deep, ".git"))

	bare := filepath.Join(p.Root, "src", "notgit")
	os.MkdirAll(filepath.Join(bare, "objects"), 0o755)
	os.MkdirAll(filepath.Join(bare, "refs"), 0o755)
	os.WriteFile(filepath.Join(bare, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	waitGone(t, bare)
	stop()

	if _, err := os.Stat(filepath.Join(p.Root, "vendor", "old", ".git", "HEAD")); err != nil {
		t.Errorf("the place's own nested repository was moved: %v", err)
	}
	got := strings.Join(told(), "\n")
	for _, want := range []string{filepath.Join(lib, ".git"), filepath.Join(deep, ".git"), bare} {
		if !strings.Contains(got, want) {
			t.Errorf("%s was not told:\n%s", want, got)
		}
	}
	if len(g.Moved()) < 3 {
		t.Errorf("moved: %v", g.Moved())
	}
}

// With no watch at all, the sweep at the end finds what the coder made,
// by name and by content, and leaves what the place had.
func TestSweepQuarantinesWhatTheWatchMissed(t *testing.T) {
	t.Parallel()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	gitInit(t, filepath.Join(root, "repoA"))
	gitInit(t, filepath.Join(root, "repoB"))
	p := &Project{Root: root} // a folder that is no repository
	g, err := newGitGuard(p, filepath.Join(t.TempDir(), "run.git"))
	if err != nil {
		t.Fatal(err)
	}
	gitInit(t, filepath.Join(root, "repoA", "nested"))
	os.WriteFile(filepath.Join(root, "repoB", "sub", ".GIT"), nil, 0o644)
	os.MkdirAll(filepath.Join(root, "repoB", "sub"), 0o755)
	os.WriteFile(filepath.Join(root, "repoB", "sub", ".GIT"), []byte("gitdir: ../../repoA/.git\n"), 0o644)
	moved := g.sweep()
	if len(moved) != 2 {
		t.Fatalf("swept %v, want the nested .git and the .GIT file", moved)
	}
	for _, gone := range []string{filepath.Join(root, "repoA", "nested", ".git"), filepath.Join(root, "repoB", "sub", ".GIT")} {
		if _, err := os.Lstat(gone); err == nil {
			t.Errorf("%s is still in the place", gone)
		}
	}
	for _, kept := range []string{filepath.Join(root, "repoA", ".git", "HEAD"), filepath.Join(root, "repoB", ".git", "HEAD")} {
		if _, err := os.Stat(kept); err != nil {
			t.Errorf("the place's own repository lost %s", kept)
		}
	}
}

func waitGone(t *testing.T, path string) {
	t.Helper()
	if !poll.Until(20*time.Second, func() bool { _, err := os.Lstat(path); return os.IsNotExist(err) }) {
		t.Fatalf("%s was not removed while the run went on", path)
	}
}

// A nested .git the coder makes again after it was moved out (git init
// re-makes the directory it is writing into) is quarantined each time and
// listed once, with each copy.
func TestQuarantineListsAPathOnce(t *testing.T) {
	t.Parallel()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	gitInit(t, root)
	p := &Project{Root: root, GitDir: filepath.Join(root, ".git")}
	g, err := newGitGuard(p, filepath.Join(t.TempDir(), "run.git"))
	if err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(root, "sub", ".git")
	for range 2 {
		gitInit(t, filepath.Join(root, "sub"))
		if !g.quarantine(sub) {
			t.Fatalf("%s was not quarantined", sub)
		}
	}
	moved := g.Moved()
	if len(moved) != 1 || strings.Count(moved[0], g.Quarantine) != 2 {
		t.Fatalf("quarantined %q, want %s listed once with both copies", moved, sub)
	}
}

package runner

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// A commondir or config.worktree planted at the top of the git dir during
// the run is gone without waiting for the run to end, whether written or
// renamed into place; one the project had before is left alone.
func TestWatchGitPlantedRemovesAtOnce(t *testing.T) {
	root := t.TempDir()
	gitDir := filepath.Join(root, ".git")
	os.MkdirAll(filepath.Join(gitDir, "objects"), 0o755)
	os.WriteFile(filepath.Join(gitDir, "config.worktree"), []byte("[core]\n"), 0o644) // the person's own
	p := &Project{Root: root, GitDir: gitDir}
	had := gitPlantedAtStart(p)
	var mu sync.Mutex
	var removed []string
	stop, err := watchGitPlanted(context.Background(), p, had, func(f string) {
		mu.Lock()
		removed = append(removed, f)
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()

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
	mu.Lock()
	defer mu.Unlock()
	if len(removed) != 2 || removed[0] != planted {
		t.Errorf("removals told: %v, want %s twice", removed, planted)
	}
}

func waitGone(t *testing.T, path string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := os.Lstat(path); os.IsNotExist(err) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("%s was not removed while the run went on", path)
}

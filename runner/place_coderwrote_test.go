package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/config"
)

// A run in ~/work (no repository) writes repoA/.sentinel/policy.toml and
// templates.toml; repoA is a repository, where such files are taken for
// the person's without a trust step. After the run's end marks them, a run
// in repoA uses neither until the person trusts them (and then does); the
// run's own .sentinel/ and a file that is not Sentinel's are not marked.
func TestStateACoderWroteInAnotherRepositoryNeedsTrust(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	work := t.TempDir()
	repo := filepath.Join(work, "repoA")
	for _, d := range []string{filepath.Join(repo, ".git"), filepath.Join(repo, ".sentinel")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p := &Project{Root: repo, GitDir: filepath.Join(repo, ".git")}
	for _, name := range []string{"policy.toml", "templates.toml"} {
		if err := os.WriteFile(config.StateFilePath(repo, name), []byte("# coder\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if path, warn := placeStateFile(p, name); path == "" || warn != "" {
			t.Fatalf("before the mark, repoA's %s is the person's: got %q, %q", name, path, warn)
		}
	}
	ch := InPlaceChange{Files: []string{"repoA/.sentinel/policy.toml", ".sentinel/policy.toml", "repoA/notes.txt"},
		Flagged: []Flag{{Path: "repoA/.sentinel/templates.toml"}}}
	marked, failed := markCoderWroteState(work, ch)
	if len(failed) > 0 || len(marked) != 2 {
		t.Fatalf("marked %q, failed %q; want repoA's two files", marked, failed)
	}
	if config.CoderWrote(work, "policy.toml") {
		t.Fatal("the run's own .sentinel/policy.toml was marked")
	}
	files, _ := policyFiles(p)
	for _, f := range files {
		if f == config.StateFilePath(repo, "policy.toml") {
			t.Fatalf("repoA's policy files still hold the coder's: %q", files)
		}
	}
	for _, name := range []string{"policy.toml", "templates.toml"} {
		path, warn := placeStateFile(p, name)
		if path != "" || !strings.Contains(warn, "a coder's in-place run wrote it") || !strings.Contains(warn, "sentinel config trust") {
			t.Fatalf("a run in repoA uses the %s a coder wrote: got %q, %q", name, path, warn)
		}
		sum, _, err := config.HashFile(config.StateFilePath(repo, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := config.TrustFile(repo, name, sum); err != nil {
			t.Fatal(err)
		}
		if path, warn := placeStateFile(p, name); path == "" || warn != "" {
			t.Fatalf("once trusted, repoA's %s is used: got %q, %q", name, path, warn)
		}
	}
}

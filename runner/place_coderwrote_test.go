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
	t.Parallel()

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

// After the person trusts a file a coder wrote, a later change (the next
// run in the folder) withdraws it; a .sentinel/ the run made (or made a
// link) marks both files; a .sentinel/ that is a link to a directory the
// coder controls needs trust even with no mark.
func TestStateACoderWroteStaysHeldByItsBytes(t *testing.T) {
	t.Parallel()

	work := t.TempDir()
	repo, other := filepath.Join(work, "repoA"), filepath.Join(work, "repoB")
	for _, d := range []string{filepath.Join(repo, ".git"), filepath.Join(repo, ".sentinel"), filepath.Join(other, ".git"), filepath.Join(work, "evil")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	pol := config.StateFilePath(repo, "policy.toml")
	if err := os.WriteFile(pol, []byte("# one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, failed := markCoderWroteState(work, InPlaceChange{Files: []string{"repoA/.sentinel/policy.toml", "repoB/.sentinel"}}); len(failed) > 0 {
		t.Fatal(failed)
	}
	p := &Project{Root: repo, GitDir: filepath.Join(repo, ".git")}
	sum, _, _ := config.HashFile(pol)
	if err := config.TrustFile(repo, "policy.toml", sum); err != nil {
		t.Fatal(err)
	}
	if path, _ := placeStateFile(p, "policy.toml"); path == "" {
		t.Fatal("the trusted file is not used")
	}
	if err := os.WriteFile(pol, []byte("# two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if path, _ := placeStateFile(p, "policy.toml"); path != "" {
		t.Fatal("a change after the person's trust is used without trust")
	}
	for _, name := range []string{"policy.toml", "templates.toml"} {
		if !config.CoderWrote(other, name) {
			t.Errorf("repoB/.sentinel made by the run did not mark %s", name)
		}
	}
	if err := os.WriteFile(filepath.Join(work, "evil", "policy.toml"), []byte("# evil\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	third := filepath.Join(work, "repoC")
	if err := os.MkdirAll(filepath.Join(third, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(work, "evil"), filepath.Join(third, ".sentinel")); err != nil {
		t.Fatal(err)
	}
	if path, warn := placeStateFile(&Project{Root: third, GitDir: filepath.Join(third, ".git")}, "policy.toml"); path != "" || warn == "" {
		t.Fatalf("a .sentinel/ that is a link is used without trust: %q %q", path, warn)
	}
}

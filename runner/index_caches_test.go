package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/gitindex"
)

// personGit is git as the person's and the coder's run it: status
// writes the index (the tests' git takes no optional locks).
func personGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := gitTestCmd(dir, args...)
	cmd.Env = append(cmd.Env, "GIT_OPTIONAL_LOCKS=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// cachedRepo is a repository with one commit whose index is written in
// the given format (index version, object format).
func cachedRepo(t *testing.T, args ...string) (string, *Workspace) {
	t.Helper()
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	gitT(t, dir, append([]string{"init", "-q"}, args...)...)
	write(t, filepath.Join(dir, "a.txt"), "a\n")
	write(t, filepath.Join(dir, "sub", "b.txt"), "b\n")
	gitT(t, dir, "add", "-A")
	gitT(t, dir, "commit", "-qm", "one")
	write(t, filepath.Join(dir, "n.txt"), "n\n")
	gitT(t, dir, "add", "-N", "n.txt") // an entry with extended flags (v3)
	// Not racily clean: git trusts the stat record of each.
	old := time.Now().Add(-time.Hour)
	for _, p := range []string{"a.txt", "sub/b.txt", "n.txt"} {
		os.Chtimes(filepath.Join(dir, p), old, old)
	}
	personGit(t, dir, "status", "--porcelain") // records the stat data anew
	w := &Workspace{Dir: dir, Shadow: filepath.Join(t.TempDir(), "shadow.git"), project: &Project{Root: dir, GitDir: filepath.Join(dir, ".git")}}
	return dir, w
}

// An untracked-files cache (UNTR) or fsmonitor record (FSMN) the coder's
// git writes into the index is removed at the end of the run and named,
// DANGEROUS where the index had none at the start: the fsmonitor record
// here, with the person's fsmonitor hook answering "nothing changed",
// hides a changed file from the person's git status until it is removed.
// The index stays git's own (entries and the other extensions kept, its
// checksum right) in each format: index versions 2 to 4, SHA-1 and
// SHA-256, and a split index.
func TestInPlaceRemovesIndexCachesTheCoderWrote(t *testing.T) {
	t.Parallel()
	for name, args := range map[string][]string{"v2": nil, "v4": {"--", "v4"}, "sha256": {"--object-format=sha256"}, "split": nil} {
		t.Run(name, func(t *testing.T) {
			var dir string
			var w *Workspace
			switch name {
			case "v4":
				dir, w = cachedRepo(t)
				gitT(t, dir, "update-index", "--index-version", "4")
			case "split": // the caches are in the main index, beside its link
				dir, w = cachedRepo(t)
				gitT(t, dir, "update-index", "--split-index")
			default:
				dir, w = cachedRepo(t, args...)
			}
			if err := w.recordIndex(); err != nil {
				t.Fatal(err)
			}
			// The person's fsmonitor hook (v1) answers that nothing
			// changed since any token.
			hook := filepath.Join(t.TempDir(), "fsmon")
			write(t, hook, "#!/bin/sh\nexit 0\n")
			os.Chmod(hook, 0o755)
			fsm := []string{"-c", "core.fsmonitor=" + hook, "-c", "core.fsmonitorHookVersion=1"}
			// The coder's git.
			personGit(t, dir, "update-index", "--untracked-cache")
			personGit(t, dir, append(fsm, "update-index", "--fsmonitor")...)
			personGit(t, dir, append(fsm, "status", "--porcelain")...)
			write(t, filepath.Join(dir, "a.txt"), "the coder's\n")
			idx, _ := os.ReadFile(filepath.Join(dir, ".git", "index"))
			if c, err := gitindex.CachesOf(idx); err != nil || c["UNTR"] == nil || c["FSMN"] == nil {
				t.Fatalf("the coder's index does not carry both caches: %v %v", c, err)
			}
			if st := personGit(t, dir, append(fsm, "status", "--porcelain", "--untracked-files=no")...); strings.Contains(st, "a.txt") {
				t.Fatalf("the fsmonitor record did not hide the change: the attack did not take\n%s", st)
			}
			entries := gitT(t, dir, "ls-files", "-s", "-v")
			got, err := w.dropIndexCaches()
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 2 || got[0].Sig != "FSMN" || got[1].Sig != "UNTR" || !got[0].New || got[0].Err != "" {
				t.Fatalf("want FSMN and UNTR named new and removed: %+v", got)
			}
			if s := got[0].String(); !strings.Contains(s, "DANGEROUS") || !strings.Contains(s, "removed") {
				t.Errorf("the line does not say DANGEROUS and removed: %s", s)
			}
			idx, _ = os.ReadFile(filepath.Join(dir, ".git", "index"))
			if c, err := gitindex.CachesOf(idx); err != nil || c["UNTR"] != nil || c["FSMN"] != nil {
				t.Errorf("the caches are still in the index: %v %v", c, err)
			}
			if e := gitT(t, dir, "ls-files", "-s", "-v"); e != entries {
				t.Errorf("the entries changed:\nwant\n%s\ngot\n%s", entries, e)
			}
			if st := gitT(t, dir, "-c", "core.fsmonitor=false", "status", "--porcelain", "--untracked-files=no"); !strings.Contains(st, "a.txt") {
				t.Errorf("git status still does not show the change:\n%s", st)
			}
			// A second end of run finds nothing to remove.
			if again, err := w.dropIndexCaches(); err != nil || len(again) != 0 {
				t.Errorf("named again: %+v %v", again, err)
			}
		})
	}
}

// The person's own caches, which the run left byte for byte, stay; one
// the coder's git rewrote is removed without DANGEROUS.
func TestInPlaceKeepsThePersonsOwnIndexCaches(t *testing.T) {
	t.Parallel()
	dir, w := cachedRepo(t)
	personGit(t, dir, "update-index", "--untracked-cache")
	personGit(t, dir, "-c", "core.untrackedCache=true", "status", "--porcelain")
	if err := w.recordIndex(); err != nil {
		t.Fatal(err)
	}
	if got, err := w.dropIndexCaches(); err != nil || len(got) != 0 {
		t.Fatalf("the person's untouched cache is named: %+v %v", got, err)
	}
	write(t, filepath.Join(dir, "new.txt"), "n\n")
	personGit(t, dir, "-c", "core.untrackedCache=true", "status", "--porcelain")
	got, err := w.dropIndexCaches()
	if err != nil || len(got) != 1 || got[0].Sig != "UNTR" || got[0].New || strings.Contains(got[0].String(), "DANGEROUS") {
		t.Fatalf("want the rewritten UNTR removed, not DANGEROUS: %+v %v", got, err)
	}
}

// The report names no cache-tree that was removed: the coder's ordinary
// commit writes one, and removing it is always safe.
func TestTheReportNamesNoRemovedCacheTree(t *testing.T) {
	t.Parallel()
	if got := indexCachesText([]gitindex.Cache{{Sig: "TREE", What: "a cache-tree", New: true}}); got != "" {
		t.Errorf("a removed cache-tree was told: %q", got)
	}
	if got := indexCachesText([]gitindex.Cache{{Sig: "TREE", What: "a cache-tree", Err: "locked"}}); !strings.Contains(got, "not removed") {
		t.Errorf("a cache-tree that could not be removed was not told: %q", got)
	}
}

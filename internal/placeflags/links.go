package placeflags

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/internal/gitincludes"
	"github.com/sentinelhq/sentinel/internal/runlater"
	"github.com/sentinelhq/sentinel/policy"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// A file that runs later can reach another file of the place that its
// own name does not flag: the person's `.git/hooks/pre-commit` is a link
// to `scripts/pre-commit.sh`, or a hook script runs `exec
// scripts/pre-push.sh` (git runs both on the next commit or push, with no
// prompt); a tracked `.vscode` is a link to `config/editor/`, an `.envrc`
// a link to `env/dev.sh`. A coder's edit of the file reached was reported
// as a plain change (h/ipatk16). So the links the place had before the
// coder acted whose names run later (and every hook of the repository's
// own hooks folder, linked or not) are followed to what they name in the
// place, and the files the hooks (and a .pre-commit-config.yaml's local
// hooks' entry lines) name to run are read, as the makefiles' are
// (runlater.Named).

// maxHooks bounds how many hook files are read.
const maxHooks = 64

// hookDirs are the hooks folders always read: git's own and the tracked
// ones hook managers keep (their files run as hooks through
// core.hooksPath or a stub in .git/hooks); hooksFolders adds what
// core.hooksPath names.
var hookDirs = []string{".git/hooks", ".husky", ".githooks", ".git-hooks"}

// hooksFolders are the hooks folders read (absolute): hookDirs in the
// place, and every folder core.hooksPath names for the place's
// repositories, wherever it lies and however it is set (absolute or
// relative, in any scope, through include/includeIf, in a worktree's
// config.worktree: gitincludes.AllHooksDirs, git's own reading), since
// that is what git runs at the person's next commit instead of
// .git/hooks.
func hooksFolders(root string, before *checkpoint.Manifest) []string {
	var out []string
	for _, d := range hookDirs {
		out = append(out, filepath.Join(root, filepath.FromSlash(d)))
	}
	var gitDirs []string
	if before != nil {
		for _, e := range before.Entries {
			// Take records a .git as KindGit (by presence), never KindDir.
			if (e.Kind == checkpoint.KindGit || e.Kind == checkpoint.KindDir) && path.Base(e.Path) == ".git" {
				gitDirs = append(gitDirs, filepath.Join(root, filepath.FromSlash(e.Path)))
			}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), hooksPathWait)
	defer cancel()
	for _, d := range gitincludes.AllHooksDirs(ctx, root, gitDirs) {
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// hooksPathWait bounds asking git for core.hooksPath (one git config per
// scope and repository).
const hooksPathWait = 30 * time.Second

// reached is a file or folder of the place (absolute, a real path) that
// a run-later name reaches, with how.
type reached struct {
	path string
	how  string
}

// readLinked is what the place's run-later links and hooks reach.
func readLinked(root string, before *checkpoint.Manifest) []reached {
	var out []reached
	inside := func(p string) (string, bool) {
		real, err := filepath.EvalSymlinks(p)
		if os.IsNotExist(err) { // named, not made yet: the coder may make it
			if real, err = filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
				real = filepath.Join(real, filepath.Base(p))
			}
		}
		if err != nil {
			return "", false
		}
		rel, err := filepath.Rel(root, real)
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
			return "", false
		}
		return real, true
	}
	if before != nil {
		for _, e := range before.Entries {
			if e.Kind != checkpoint.KindSymlink {
				continue
			}
			ent, ok := policy.RunsLaterHere(e.Path)
			if !ok {
				continue
			}
			if real, ok := inside(filepath.Join(root, filepath.FromSlash(e.Path))); ok {
				out = append(out, reached{real, "your " + e.Path + " is a link to it (" + ent.Reason + ")"})
			}
		}
	}
	for _, f := range FilesNamed(root, before, func(base string) bool { return base == ".pre-commit-config.yaml" || base == ".pre-commit-config.yml" }) {
		rel, _ := filepath.Rel(root, f)
		if filepath.Dir(rel) != "." {
			continue // pre-commit reads the one at the top of the repository
		}
		for _, nm := range runlater.PreCommitRuns(f, filepath.ToSlash(rel), root) {
			if real, ok := inside(nm.Path); ok {
				out = append(out, reached{real, nm.How})
			}
		}
	}
	n := 0
	for _, d := range hooksFolders(root, before) {
		des, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		shown := d // the hook as the flag names it: from the place, or whole
		if rel, err := filepath.Rel(root, d); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			shown = filepath.ToSlash(rel)
		}
		for _, de := range des {
			name := de.Name()
			if strings.HasSuffix(name, ".sample") || strings.HasPrefix(name, ".") || de.IsDir() || n >= maxHooks {
				continue
			}
			n++
			hook := path.Join(shown, name)
			abs := filepath.Join(d, name)
			if de.Type()&os.ModeSymlink != 0 {
				if real, ok := inside(abs); ok {
					out = append(out, reached{real, "your git hook " + hook + " is a link to it: git runs it (on " + name + ")"})
				}
				continue
			}
			for _, nm := range runlater.HookRuns(abs, hook, root) {
				if real, ok := inside(nm.Path); ok {
					out = append(out, reached{real, nm.How})
				}
			}
		}
	}
	return out
}

// Linked flags each file of changes, made or changed, that a run-later
// link of the place names (or that is under a folder one names), or that
// a hook runs.
func (r Reads) Linked(changes []checkpoint.Change) []Flag {
	if len(r.linked) == 0 {
		return nil
	}
	var out []Flag
	for _, c := range changes {
		if c.After == nil || c.After.Kind == checkpoint.KindDir {
			continue
		}
		abs := filepath.Join(r.root, filepath.FromSlash(c.Path))
		for _, l := range r.linked {
			if abs == l.path || strings.HasPrefix(abs, l.path+string(filepath.Separator)) {
				out = append(out, Flag{c.Path, l.how + ": what it now says runs on your machine, outside the sandbox"})
				break
			}
		}
	}
	return out
}

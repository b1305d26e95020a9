package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sentinelhq/sentinel/internal/gitdir"
	"github.com/sentinelhq/sentinel/internal/hardgit"
	"github.com/sentinelhq/sentinel/internal/hostbin"
)

// Project is the person's real repository and Sentinel's state inside it.
type Project struct {
	Root   string // the work tree's top level
	GitDir string // its .git directory (absolute)
}

// ErrNotRepo and ErrNoCommits are the two ways a directory can fail to be a
// project Sentinel can work on.
var (
	ErrNotRepo   = errors.New("not inside a git repository (run 'git init' and commit, or cd into your project)")
	ErrNoCommits = errors.New("the repository has no commits yet (make a first commit: git add -A && git commit -m init)")
)

// FindProject locates the git repository containing dir and checks that it
// has a commit to start from, first recovering the objects of a killed
// in-place run that its branch points at.
func FindProject(ctx context.Context, dir string) (*Project, error) {
	if _, err := hostbin.Find("git"); err != nil {
		return nil, fmt.Errorf("git is not installed where Sentinel takes it from (install it: apt-get install git): %w", err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	g := gitCmd{dir: abs}
	root, gitDir, inRepo, err := topLevelAndGitDir(ctx, g)
	if !inRepo || err != nil {
		return nil, fmt.Errorf("%s: %w", abs, ErrNotRepo)
	}
	p := &Project{Root: root, GitDir: gitDir}
	if _, err := g.line(ctx, "rev-parse", "--verify", "-q", "HEAD^{commit}"); err != nil {
		// No commits yet, or a killed in-place run's commit whose objects
		// are still in its scratch dir (project_stranded.go).
		if err := p.recoverStrandedHead(ctx); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// topLevelAndGitDir asks git for the work tree's top level and the
// absolute git dir of the repository at g.dir in one process (rev-parse
// prints one line for each). inRepo is false when git finds no work tree
// there; err is set when it finds one but not its git dir. Should the
// answer not be exactly two lines (a path holding a newline), it asks for
// each alone, as it always did.
func topLevelAndGitDir(ctx context.Context, g gitCmd) (root, gitDir string, inRepo bool, err error) {
	if out, err := g.run(ctx, "rev-parse", "--show-toplevel", "--absolute-git-dir"); err == nil {
		if lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n"); len(lines) == 2 {
			root, gitDir = strings.TrimSpace(lines[0]), strings.TrimSpace(lines[1])
			if root != "" && gitDir != "" {
				return root, gitDir, true, nil
			}
		}
	}
	if root, err = g.line(ctx, "rev-parse", "--show-toplevel"); err != nil || root == "" {
		return "", "", false, nil
	}
	gitDir, err = g.line(ctx, "rev-parse", "--absolute-git-dir")
	return root, gitDir, true, err
}

// TopLevel is the work tree's top level of the repository containing dir,
// found with hardened git, or "" outside a repository. git's answer is
// kept while nothing it was read from changes (toplevel_cache.go).
func TopLevel(ctx context.Context, dir string) string {
	if !mayBeInRepo(dir) {
		return "" // what git would answer, without starting it
	}
	key, keyed := topLevelKey(dir)
	if top, ok := cachedTopLevel(dir, key); keyed && ok {
		return top
	}
	// rev-parse reads no file content: no driver scan (hardgit.NoContent).
	out, err := hardgit.Git{Dir: dir, NoContent: true}.Run(ctx, "rev-parse", "--show-toplevel")
	if err != nil {
		return ""
	}
	top := strings.TrimSpace(out)
	if keyed {
		keepTopLevel(dir, key, top)
	}
	return top
}

// StateDir is the project's .sentinel directory.
func (p *Project) StateDir() string { return filepath.Join(p.Root, ".sentinel") }

// RunsDir holds one directory per run.
func (p *Project) RunsDir() string { return filepath.Join(p.StateDir(), "runs") }

// RunDir is one run's directory (journal, patch, reports, broker socket).
func (p *Project) RunDir(id string) string { return filepath.Join(p.RunsDir(), id) }

// WorkDir is where a live run's workspace lives.
func (p *Project) WorkDir(id string) string { return filepath.Join(p.StateDir(), "work", id) }

// RecoveryDir keeps the workspace and patch of a run that did not land.
func (p *Project) RecoveryDir(id string) string {
	return filepath.Join(p.StateDir(), "recovery", id)
}

// EnsureState creates .sentinel/ and keeps it out of git through
// .git/info/exclude — never by editing the person's .gitignore.
func (p *Project) EnsureState() error {
	for _, d := range []string{p.RunsDir(), filepath.Join(p.StateDir(), "work"), filepath.Join(p.StateDir(), "recovery")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return fmt.Errorf("create %s: %w", d, err)
		}
	}
	return p.excludeState()
}

// commonDir is the git dir shared by every worktree of the repository
// (p.GitDir itself unless the project is a linked worktree).
func (p *Project) commonDir() string { return gitdir.Common(p.GitDir) }

// ObjectsDir is the repository's object store.
func (p *Project) ObjectsDir() string { return filepath.Join(p.commonDir(), "objects") }

func (p *Project) excludeState() error {
	if p.GitDir == "" {
		return nil // not a repository (sentinel exec works in any directory)
	}
	// The common dir holds info/exclude for every worktree of the repository.
	path := filepath.Join(p.commonDir(), "info", "exclude")
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("read %s: %w", path, err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if t := strings.TrimSpace(l); t == "/.sentinel/" || t == ".sentinel/" || t == "/.sentinel" {
			return nil
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("update %s: %w", path, err)
	}
	defer f.Close()
	prefix := ""
	if len(b) > 0 && !strings.HasSuffix(string(b), "\n") {
		prefix = "\n"
	}
	_, err = fmt.Fprintf(f, "%s# Sentinel's run state (journals, workspaces, recovery)\n/.sentinel/\n", prefix)
	return err
}

// CheckStateUntracked refuses a repository that ships its own .sentinel/
// files (in any spelling a case-folding file system takes for it):
// project-scope policy rules, remembered approvals and config must be the
// person's own, never something a cloned repository or a merged branch
// brought along. The advice removes the committed files from the index and
// the working tree — untracking them alone would leave the shipped
// templates and config in place for the next run — and keeps the person's
// untracked state (runs, recovery).
func (p *Project) CheckStateUntracked(ctx context.Context) error {
	out, err := gitCmd{dir: p.Root}.run(ctx, "ls-files", "-z")
	if err != nil {
		return err
	}
	var first string
	var tops []string
	seen := map[string]bool{}
	for _, f := range strings.Split(out, "\x00") {
		top, _, _ := strings.Cut(f, "/")
		if f == "" || !isShortOrExact(fsName(top), stateDirName, "sentin~") {
			continue
		}
		if first == "" {
			first = f
		}
		if !seen[top] {
			seen[top] = true
			tops = append(tops, shellQuote(top))
		}
	}
	if first == "" {
		return nil
	}
	return fmt.Errorf("%s is committed in this repository, and Sentinel does not trust policy, approvals or config a repository ships; remove the committed files from the repository and from your working tree (your own untracked runs and recovery stay) with: %s — then write your own .sentinel/config.toml or templates.toml again if you had one (checking out the committed files replaced them)",
		first, removeStateCommand(tops))
}

// removeStateCommand is the advice's command line.
func removeStateCommand(quotedTops []string) string {
	return "git rm -r -f -q -- " + strings.Join(quotedTops, " ") + " && git commit -q -m 'Remove committed Sentinel state'"
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// mayBeInRepo is false only when git's discovery from dir cannot find a
// repository: no directory from dir up to / (along its path as given and
// with symlinks resolved) holds a .git entry or is itself a git directory
// (git's test for that needs a HEAD). Hardened git ignores GIT_DIR and the
// like, so nothing else can point it at one.
func mayBeInRepo(dir string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return true
	}
	paths := []string{abs}
	if real, err := filepath.EvalSymlinks(abs); err != nil {
		return true
	} else if real != abs {
		paths = append(paths, real)
	}
	for _, p := range paths {
		for d := p; ; d = filepath.Dir(d) {
			for _, name := range []string{".git", "HEAD"} {
				if _, err := os.Lstat(filepath.Join(d, name)); !errors.Is(err, os.ErrNotExist) {
					return true // there, or unknown
				}
			}
			if d == filepath.Dir(d) {
				break
			}
		}
	}
	return false
}

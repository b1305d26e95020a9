package runner

// The workspace is a `git clone --shared` of the real repository, checked
// out at a snapshot commit (HEAD plus the person's uncommitted changes).
//
// Why a shared clone and not `git worktree add`: a worktree shares the real
// .git — its refs, hooks and config — so a coder could rewrite a branch or
// plant a hook that runs later in the person's checkout. A shared clone has
// its own refs, hooks and config and only borrows the object store through
// objects/info/alternates, which git never writes to. Its origin remote is
// removed so even an unsandboxed coder has no configured way to push back.
//
// Sentinel never trusts the workspace's own .git afterwards: the patch is
// computed through a separate "shadow" git directory in the run directory,
// which the coder cannot write, with hardened git (see git.go), so config,
// hooks or attributes the coder planted run nothing on Sentinel's side.

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Snapshot is the starting point of a run.
type Snapshot struct {
	Base   string // the person's HEAD commit
	Commit string // HEAD plus uncommitted changes; equals Base when the tree was clean
	Dirty  bool   // there were uncommitted changes
}

// TakeSnapshot records HEAD plus the person's uncommitted changes (modified
// tracked files and untracked files that are not ignored) as a commit in the
// real repository's object store, without touching its index, working tree
// or refs. It works on a copy of the index, so unchanged files are not
// re-hashed.
func TakeSnapshot(ctx context.Context, p *Project, scratch string) (Snapshot, error) {
	g := gitCmd{dir: p.Root}
	base, err := g.line(ctx, "rev-parse", "--verify", "HEAD^{commit}")
	if err != nil {
		return Snapshot{}, err
	}
	index := filepath.Join(scratch, "snapshot.index")
	if err := copyFile(filepath.Join(p.GitDir, "index"), index); err != nil && !os.IsNotExist(err) {
		return Snapshot{}, fmt.Errorf("copy the index: %w", err)
	}
	gi := g.with("GIT_INDEX_FILE=" + index)
	if _, err := gi.run(ctx, "add", "-A", "--", "."); err != nil {
		return Snapshot{}, fmt.Errorf("snapshot uncommitted changes: %w", err)
	}
	tree, err := gi.line(ctx, "write-tree")
	if err != nil {
		return Snapshot{}, err
	}
	os.Remove(index)
	headTree, err := g.line(ctx, "rev-parse", "HEAD^{tree}")
	if err != nil {
		return Snapshot{}, err
	}
	if tree == headTree {
		return Snapshot{Base: base, Commit: base}, nil
	}
	commit, err := g.line(ctx, "commit-tree", tree, "-p", base, "-m",
		"sentinel: snapshot of uncommitted changes\n\nThe working tree as it was when the run started.")
	if err != nil {
		return Snapshot{}, err
	}
	return Snapshot{Base: base, Commit: commit, Dirty: true}, nil
}

// Workspace is the coder's disposable copy of the project.
type Workspace struct {
	Dir      string // the copy the coder works in
	Shadow   string // Sentinel's own git dir for reading the copy
	Snapshot Snapshot
	project  *Project
}

// CreateWorkspace clones the project into dir at the snapshot. shadowDir is
// a directory the coder cannot write (inside the run directory).
func CreateWorkspace(ctx context.Context, p *Project, snap Snapshot, dir, shadowDir, branch string) (*Workspace, error) {
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return nil, err
	}
	g := gitCmd{dir: p.Root}
	if _, err := g.run(ctx, "clone", "--shared", "--no-checkout", "--quiet", "--", p.Root, dir); err != nil {
		return nil, fmt.Errorf("create workspace: %w", err)
	}
	w := gitCmd{dir: dir}
	if _, err := w.run(ctx, "remote", "remove", "origin"); err != nil {
		return nil, err
	}
	if _, err := w.run(ctx, "checkout", "--quiet", "-B", branch, snap.Commit); err != nil {
		return nil, fmt.Errorf("check out the snapshot: %w", err)
	}
	if _, err := g.run(ctx, "init", "--quiet", "--bare", "--", shadowDir); err != nil {
		return nil, fmt.Errorf("create shadow git dir: %w", err)
	}
	alt := filepath.Join(shadowDir, "objects", "info", "alternates")
	objects := filepath.Join(p.GitDir, "objects")
	if err := os.WriteFile(alt, []byte(objects+"\n"), 0o600); err != nil {
		return nil, err
	}
	// The checkout's index is trustworthy now, before the coder starts: its
	// stat data lets the final `git add` re-hash only what changed.
	if err := copyFile(filepath.Join(dir, ".git", "index"), shadowIndex(shadowDir)); err != nil {
		return nil, fmt.Errorf("seed the shadow index: %w", err)
	}
	return &Workspace{Dir: dir, Shadow: shadowDir, Snapshot: snap, project: p}, nil
}

func shadowIndex(shadow string) string { return filepath.Join(shadow, "sentinel.index") }

func (w *Workspace) shadowGit() gitCmd {
	return gitCmd{dir: w.Dir, env: []string{
		"GIT_DIR=" + w.Shadow,
		"GIT_WORK_TREE=" + w.Dir,
		"GIT_INDEX_FILE=" + shadowIndex(w.Shadow),
	}}
}

// Change is the coder's work relative to the snapshot.
type Change struct {
	Tree  string   // the workspace's tree (objects live in the shadow git dir)
	Patch []byte   // git diff --binary against the snapshot
	Files []string // changed paths
}

// Empty reports whether the coder changed nothing.
func (c Change) Empty() bool { return len(c.Files) == 0 }

// Diff computes the coder's change with hardened git through the shadow git
// dir. Files the project ignores are not part of it.
func (w *Workspace) Diff(ctx context.Context) (Change, error) {
	g := w.shadowGit()
	// Tracked files deleted by the coder, new files, and edits all count.
	if _, err := g.run(ctx, "add", "-A", "--", "."); err != nil {
		return Change{}, fmt.Errorf("read the workspace: %w", err)
	}
	tree, err := g.line(ctx, "write-tree")
	if err != nil {
		return Change{}, err
	}
	names, err := g.run(ctx, "diff", "--cached", "--name-only", "-z", "--no-renames", w.Snapshot.Commit)
	if err != nil {
		return Change{}, err
	}
	var files []string
	for _, n := range strings.Split(names, "\x00") {
		if n != "" {
			files = append(files, n)
		}
	}
	patch, err := g.run(ctx, "diff", "--cached", "--binary", "--no-ext-diff", "--no-textconv",
		"--no-color", "--no-renames", w.Snapshot.Commit)
	if err != nil {
		return Change{}, err
	}
	return Change{Tree: tree, Patch: []byte(patch), Files: files}, nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

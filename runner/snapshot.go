package runner

// A run starts from a snapshot: HEAD plus the person's uncommitted changes,
// recorded as a commit in the real repository's object store without
// touching its index, working tree or refs.
//
// The snapshot's tree is by definition what `git add -A` on a copy of the
// index followed by `git write-tree` gives. Doing exactly that rewrites the
// whole index (48 MB at 500,000 files) and every tree, so TakeSnapshot
// builds the same tree from what changed instead (snapshot_changes.go: a
// stat scan with the index's stat data, then hashing only the changed
// files; snapshot_tree.go: editing only the trees on the changed paths),
// and goes back to `git add -A` on a copy of the index whenever the
// changes hold anything that quick path does not model. What both pay is
// git's own scan: an lstat of every tracked file and a walk of every
// directory for untracked files — the walk cut to the directories that
// changed, where git's untracked cache in a private index in the user's
// state dir can be trusted (snapshot_untracked.go).
//
// The lstat of every tracked file is the floor: a file written in place
// moves no stat data of its directory, so no directory-level shortcut may
// stand for it (TestCachedSnapshotSeesEveryChange). At 500,000 files it
// is 2.3-2.8 CPU-s on a 2-core VM whose kernel runs page-table isolation
// (1.2 µs a syscall before any work; the bench's workspace rows time it
// beside the snapshot). Going under it needs a change feed, and inotify
// and fanotify report no write made through a shared mmap: a watcher can
// narrow the scan only with a full one still checking it.
//
// Both see the work tree as git does: a file whose stat data match its
// index entry is taken as the entry's content unless the entry is racily
// clean (its mtime no earlier than the index file's, the file possibly
// written again in that second), when git reads the file. The quick path
// reads the person's index where it is; the copy add -A works on keeps
// the index's mtime (copyIndex), or a same-second edit would be missed.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Snapshot is the starting point of a run.
type Snapshot struct {
	Base   string // the person's HEAD commit
	Commit string // HEAD plus uncommitted changes; equals Base when the tree was clean
	Dirty  bool   // there were uncommitted changes
	// Tree is Commit's tree where the snapshot was just taken ("" where
	// the Snapshot was rebuilt from a record: ask git).
	Tree string
}

// TakeSnapshot records HEAD plus the person's uncommitted changes (modified,
// staged and deleted tracked files and untracked files that are not
// ignored) as a commit. scratch is a directory Sentinel owns (the run
// directory) for short-lived files.
func TakeSnapshot(ctx context.Context, p *Project, scratch string) (Snapshot, error) {
	return takeSnapshot(ctx, p, scratch, defaultSnapshotOptions(p))
}

// takeSnapshot is TakeSnapshot scanning as o says.
func takeSnapshot(ctx context.Context, p *Project, scratch string, o snapshotOptions) (Snapshot, error) {
	g := gitCmd{dir: p.Root}
	base, err := g.line(ctx, "rev-parse", "--verify", "HEAD^{commit}")
	if err != nil {
		return Snapshot{}, err
	}
	// The scan needs only the commit: HEAD's tree is looked up beside it,
	// not in series with it (each git start is a wait on a loaded machine).
	var headTree string
	var treeErr error
	looked := make(chan struct{})
	go func() {
		defer close(looked)
		headTree, treeErr = g.line(ctx, "rev-parse", "--verify", base+"^{tree}")
	}()
	head := snapshotHead{commit: base, index: filepath.Join(p.GitDir, "index")}
	changes, err := worktreeChanges(ctx, g, head, scratch, o)
	<-looked
	if treeErr != nil {
		return Snapshot{}, treeErr
	}
	tree := headTree
	if err == nil && len(changes) > 0 {
		tree, err = editTree(ctx, g, headTree, changes)
	}
	if err != nil {
		if ctx.Err() != nil {
			return Snapshot{}, err
		}
		if tree, err = treeByAdd(ctx, g, p, scratch); err != nil {
			return Snapshot{}, err
		}
	}
	if tree == headTree {
		return Snapshot{Base: base, Commit: base, Tree: tree}, nil
	}
	commit, err := g.line(ctx, "commit-tree", tree, "-p", base, "-m",
		"sentinel: snapshot of uncommitted changes\n\nThe working tree as it was when the run started.")
	if err != nil {
		return Snapshot{}, err
	}
	return Snapshot{Base: base, Commit: commit, Dirty: true, Tree: tree}, nil
}

// snapshotHead is what a snapshot is taken against: HEAD's commit and tree,
// read once (HEAD may move while the snapshot is taken), and the index file.
type snapshotHead struct{ commit, tree, index string }

// changedTree is HEAD's tree with the working tree's changes applied, built
// from the changed paths only. An error (unusualError for a change it does
// not model, or a failing git call) means: take the tree from treeByAdd.
func changedTree(ctx context.Context, g gitCmd, head snapshotHead, scratch string, o snapshotOptions) (string, error) {
	changes, err := worktreeChanges(ctx, g, head, scratch, o)
	if err != nil || len(changes) == 0 {
		return head.tree, err
	}
	return editTree(ctx, g, head.tree, changes)
}

// unusualError is a change the quick path leaves to `git add -A`.
type unusualError struct{ why string }

func (e *unusualError) Error() string { return "snapshot by changed paths: " + e.why }

func unusual(format string, args ...any) error {
	return &unusualError{why: fmt.Sprintf(format, args...)}
}

func isUnusual(err error) bool {
	var u *unusualError
	return errors.As(err, &u)
}

// treeByAdd is the snapshot's tree by definition: `git add -A` on a copy of
// the index (so unchanged files are not re-hashed; copyIndex keeps its
// mtime, which tells git which entries it may not trust), then
// `git write-tree`.
func treeByAdd(ctx context.Context, g gitCmd, p *Project, scratch string) (string, error) {
	index := filepath.Join(scratch, "snapshot.index")
	if err := copyIndex(filepath.Join(p.GitDir, "index"), index); err != nil && !os.IsNotExist(err) {
		return "", fmt.Errorf("copy the index: %w", err)
	}
	defer os.Remove(index)
	gi := g.with("GIT_INDEX_FILE=" + index)
	// A split index's copy is written whole: kept split, the add could
	// write a new shared index into the person's git dir.
	if _, err := gi.run(ctx, "-c", "core.splitIndex=false", "add", "-A", "--", "."); err != nil {
		return "", fmt.Errorf("snapshot uncommitted changes: %w", err)
	}
	return gi.line(ctx, "write-tree")
}

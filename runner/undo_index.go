package runner

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/gitindex"
	"github.com/sentinelhq/sentinel/internal/hardgit"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// The git index of an in-place run, kept with its checkpoint: a copy as
// it was before the coder acted, one before each checkpointed tool call
// (when it changed since the last copy) and one as the run left it.
// `sentinel undo` puts the copy of the chosen point back when the index's
// staged entries are still as the run left them (inplace_index.go tells
// why the index matters). Entries are compared, not bytes: a plain `git
// status` rewrites the index's stat data and extensions, which is no
// change to what is staged.

const (
	indexBefore = "index-before"
	indexAfter  = "index-after"
)

// pointIndexName is the name of the index copy taken before tool call n.
func pointIndexName(n int) string { return fmt.Sprintf("index-call-%d", n) }

// saveIndex copies the project's index into record id's dir as which; a
// project without an index is kept as an empty file. It is the hash of
// what it saved.
func saveIndex(s *checkpoint.Store, id, gitDir, which string) ([sha256.Size]byte, error) {
	b, err := readGitIndex(gitDir)
	if err != nil && !os.IsNotExist(err) {
		return [sha256.Size]byte{}, err
	}
	return sha256.Sum256(b), writeIndexCopy(s, id, which, b)
}

func writeIndexCopy(s *checkpoint.Store, id, which string, b []byte) error {
	dir, err := s.RecordDir(id)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, which), b, 0o600)
}

// stagedList is the staged entries of the index file at path, read
// through the project's git dir with hardened git, one "tag mode oid stage
// path" record each, NUL-separated as `git ls-files -s -v -z` lists them:
// the tag tells an entry git is told not to look at (assume-unchanged,
// skip-worktree), which hides the file's changes from git status as
// surely as staging other content misleads it (hiddenChanges). An empty
// file is an empty index.
func stagedList(ctx context.Context, gitDir, path string) (string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if st.Size() == 0 {
		return "", nil
	}
	g := hardgit.Git{Dir: gitDir, Env: []string{"GIT_DIR=" + gitDir, "GIT_INDEX_FILE=" + path}}
	return g.Run(ctx, "ls-files", "-s", "-v", "-z")
}

// errNoPointIndex is a point whose index was not recorded.
var errNoPointIndex = errors.New("no copy of the git index was kept for that point")

// undoIndex puts the project's index back as the copy which of record id
// (indexBefore, or a point's) holds. It does nothing when the run did not
// change the staged entries or kept no copy, and refuses when the person
// changed what is staged since the run ended. It says whether it changed
// (or, dry, would change) the index.
func undoIndex(ctx context.Context, s *checkpoint.Store, id, which, gitDir string, dryRun bool) (bool, error) {
	if gitDir == "" {
		return false, nil
	}
	dir, err := s.RecordDir(id)
	if err != nil {
		return false, err
	}
	afterPath := filepath.Join(dir, indexAfter)
	if _, err := os.Stat(afterPath); err != nil {
		return false, nil // a run that kept no copy at its end (mcp, killed)
	}
	if which == "" {
		which = indexBefore
	}
	beforePath := filepath.Join(dir, which)
	before, err := os.ReadFile(beforePath)
	if errors.Is(err, fs.ErrNotExist) {
		if which == indexBefore {
			return false, nil // an older record: no copy
		}
		// A point of a record kept before points had copies: that is
		// only a loss when the run changed what is staged.
		if same, serr := sameStaged(ctx, gitDir, filepath.Join(dir, indexBefore), afterPath); serr == nil && same {
			return false, nil
		}
		return false, errNoPointIndex
	}
	if err != nil {
		return false, err
	}
	beforeList, err := stagedList(ctx, gitDir, beforePath)
	if err != nil {
		return false, fmt.Errorf("read the index as it was: %w", err)
	}
	afterList, err := stagedList(ctx, gitDir, afterPath)
	if err != nil {
		return false, fmt.Errorf("read the index as %s left it: %w", id, err)
	}
	if beforeList == afterList {
		return false, nil
	}
	// The index now, copied first: what is compared is what is replaced.
	tmp, err := os.CreateTemp("", "sentinel-index-now-*")
	if err != nil {
		return false, err
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	now, err := readGitIndex(gitDir)
	if err != nil && !os.IsNotExist(err) {
		return false, err
	}
	if err := os.WriteFile(tmp.Name(), now, 0o600); err != nil {
		return false, err
	}
	nowList, err := stagedList(ctx, gitDir, tmp.Name())
	if err != nil {
		return false, fmt.Errorf("read the git index: %w", err)
	}
	if nowList == beforeList {
		return false, nil
	}
	if nowList != afterList {
		return false, fmt.Errorf("the git index changed since %s ended, so the run's staging cannot be told from yours; check `git diff --cached` and use `git restore --staged FILE` for what the coder staged", id)
	}
	if dryRun {
		return true, nil
	}
	return true, replaceIndex(gitDir, now, before)
}

// replaceIndex writes b as gitDir's index, atomically and under git's
// own index.lock (as git writes it: the new index is the lock file,
// renamed over the old one), unless the index changed from was since it
// was read; an empty b removes the index. While a git command holds the
// lock it refuses: that command would rename its index over undo's, or
// undo over what it just staged.
func replaceIndex(gitDir string, was, b []byte) error {
	err := gitindex.Replace(gitDir, was, b)
	switch {
	case errors.Is(err, gitindex.ErrLocked):
		return fmt.Errorf("%w; run 'sentinel undo' again when it is done, or remove that file if no git command runs", err)
	case errors.Is(err, gitindex.ErrChanged):
		return fmt.Errorf("the git index changed while undo read it; run 'sentinel undo' again")
	}
	return err
}

// sameStaged says whether the index files a and b stage the same entries.
func sameStaged(ctx context.Context, gitDir, a, b string) (bool, error) {
	la, err := stagedList(ctx, gitDir, a)
	if err != nil {
		return false, err
	}
	lb, err := stagedList(ctx, gitDir, b)
	return err == nil && la == lb, err
}

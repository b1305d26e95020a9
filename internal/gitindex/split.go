package gitindex

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/hardgit"
)

// A split index (git update-index --split-index, or core.splitIndex)
// keeps most of its entries in $GIT_DIR/sharedindex.<hash>, which the
// index names in its "link" extension; the index file itself holds only
// the entries changed since. What this package reads of an index — its
// entries' marks (skip-worktree, assume-unchanged) and stat records — is
// the index file's own entries, and a copy of the file alone cannot be
// read by git at all. A command that splits the index after marking a
// trojaned file skip-worktree kept the mark out of sight (sentinel mcp
// left it, and the person's git status and git diff showed nothing), and
// turned exec's staged report into "could not compare the index". So
// every index is read whole: Whole gives the bytes of one with its
// shared part merged in, and Unsplit has git write a split index whole.

// Split says whether the index b links to a shared index.
func Split(b []byte) bool {
	link, err := Extension(b, "link")
	return err == nil && link != nil
}

// Whole is the index b (read from gitDir) with its shared part merged in,
// as git would read it; b itself when it is not split. git writes the
// merged index into a private temporary file; gitDir's index is not
// touched.
func Whole(ctx context.Context, gitDir string, b []byte) ([]byte, error) {
	if !Split(b) {
		return b, nil
	}
	tmp, err := os.MkdirTemp("", "sentinel-index-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	idx := filepath.Join(tmp, "index")
	if err := os.WriteFile(idx, b, 0o600); err != nil {
		return nil, err
	}
	if err := noSplit(ctx, gitDir, "GIT_INDEX_FILE="+idx); err != nil {
		return nil, err
	}
	return Read(tmp)
}

// Unsplit has git write gitDir's index whole when it links to a shared
// index, and says whether it did.
func Unsplit(ctx context.Context, gitDir string) (bool, error) {
	b, err := Read(gitDir)
	if err != nil || !Split(b) {
		if os.IsNotExist(err) {
			err = nil
		}
		return false, err
	}
	return true, noSplit(ctx, gitDir)
}

// noSplit runs git update-index --no-split-index (hardened: no hook,
// fsmonitor or driver of the repository runs) for gitDir.
func noSplit(ctx context.Context, gitDir string, env ...string) error {
	g := hardgit.Git{Dir: gitDir, Env: append([]string{"GIT_DIR=" + gitDir}, env...)}
	if _, err := g.Run(ctx, "update-index", "--no-split-index"); err != nil {
		return fmt.Errorf("write the split git index of %s whole: %w", gitDir, err)
	}
	return nil
}

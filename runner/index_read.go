package runner

import (
	"context"
	"os"

	"github.com/sentinelhq/sentinel/internal/gitindex"
)

// readGitIndex reads gitDir/index as gitindex.Read does (a link, a
// fifo, a device or a file past its bound refused).
func readGitIndex(gitDir string) ([]byte, error) { return gitindex.Read(gitDir) }

// copyWholeGitIndex writes gitDir/index, read as readGitIndex does, to
// dst, a split index's shared entries merged in (gitindex.Whole): the copy
// is read on its own, away from the sharedindex file it would name.
func copyWholeGitIndex(ctx context.Context, gitDir, dst string) error {
	b, err := readGitIndex(gitDir)
	if err != nil {
		return err
	}
	if b, err = gitindex.Whole(ctx, gitDir, b); err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o600)
}

// unsplitIndex has git write the project's index whole when the run left
// it split, so that the end's checks read every entry (gitindex/split.go).
func (w *Workspace) unsplitIndex(ctx context.Context) (bool, error) {
	if w == nil || w.project == nil || w.project.GitDir == "" {
		return false, nil
	}
	return gitindex.Unsplit(ctx, w.project.GitDir)
}

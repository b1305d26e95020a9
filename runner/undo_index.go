package runner

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// The git index of an in-place run, kept with its checkpoint: a copy as
// it was before the coder acted and one as the run left it. `sentinel
// undo` puts the first back when the index is still as the run left it
// (inplace_index.go tells why the index matters).

const (
	indexBefore = "index-before"
	indexAfter  = "index-after"
)

// saveIndex copies the project's index into record id's dir as which; a
// project without an index is kept as an empty file.
func saveIndex(s *checkpoint.Store, id, gitDir, which string) error {
	dir, err := s.RecordDir(id)
	if err != nil {
		return err
	}
	b, err := readGitIndex(gitDir)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, which), b, 0o600)
}

// undoIndex puts the project's index back as it was before record id. It
// does nothing when the run did not change the index or kept no copy,
// and refuses when the person changed the index since the run ended.
// It says whether it changed the index.
func undoIndex(s *checkpoint.Store, id, gitDir string, dryRun bool) (bool, error) {
	if gitDir == "" {
		return false, nil
	}
	dir, err := s.RecordDir(id)
	if err != nil {
		return false, err
	}
	before, err1 := os.ReadFile(filepath.Join(dir, indexBefore))
	after, err2 := os.ReadFile(filepath.Join(dir, indexAfter))
	if err1 != nil || err2 != nil || bytes.Equal(before, after) {
		return false, nil
	}
	path := filepath.Join(gitDir, "index")
	now, err := readGitIndex(gitDir)
	if err != nil && !os.IsNotExist(err) {
		return false, err
	}
	if bytes.Equal(now, before) {
		return false, nil
	}
	if !bytes.Equal(now, after) {
		return false, fmt.Errorf("the git index changed since %s ended, so the run's staging cannot be told from yours; check `git diff --cached` and use `git restore --staged FILE` for what the coder staged", id)
	}
	if dryRun {
		return true, nil
	}
	if len(before) == 0 {
		return true, os.Remove(path)
	}
	tmp, err := os.CreateTemp(gitDir, ".sentinel-index-*")
	if err != nil {
		return false, err
	}
	defer os.Remove(tmp.Name())
	if st, err := os.Stat(path); err == nil {
		_ = tmp.Chmod(st.Mode().Perm())
	}
	if _, err := tmp.Write(before); err != nil {
		tmp.Close()
		return false, err
	}
	if err := tmp.Close(); err != nil {
		return false, err
	}
	return true, os.Rename(tmp.Name(), path)
}

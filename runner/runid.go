package runner

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sync"
)

// runIDPattern is the shape of every id NewRunID makes:
// YYYYMMDD-HHMMSS-xxxxxx (six lowercase hex digits).
var runIDPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]{8}-[0-9]{6}-[0-9a-f]{6}$`) })

// ValidRunID says whether id has the shape NewRunID gives. Only such an id
// is ever joined into a path: a directory name found under .sentinel/runs
// may have been planted.
func ValidRunID(id string) bool { return runIDPattern().MatchString(id) }

// errSymlink marks a state path that is a symlink (or not a directory):
// Sentinel never follows one out of its own state.
var errSymlink = errors.New("is a symlink or not a directory")

// realDir says whether path exists as a directory that is not a symlink.
func realDir(path string) error {
	st, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if st.Mode()&os.ModeSymlink != 0 || !st.IsDir() {
		return fmt.Errorf("%s %w", path, errSymlink)
	}
	return nil
}

// stateDirs checks that .sentinel and each of sub (relative to .sentinel)
// are real directories, not symlinks, walking down from the project root.
func (p *Project) stateDirs(sub ...string) error {
	dir := p.StateDir()
	if err := realDir(dir); err != nil {
		return err
	}
	for _, s := range sub {
		dir = filepath.Join(dir, s)
		if err := realDir(dir); err != nil {
			return err
		}
	}
	return nil
}

// runDir is a run's directory, recomputed from a validated id, after
// checking that neither it nor any state directory above it is a symlink.
func (p *Project) runDir(id string) (string, error) {
	if !ValidRunID(id) {
		return "", fmt.Errorf("%q is not a run id", id)
	}
	if err := p.stateDirs("runs", id); err != nil {
		return "", err
	}
	return p.RunDir(id), nil
}

// runIDOfDir is the id of runDir when it is exactly p.RunDir(id) for a valid
// id: records are only written where they can be found and verified again.
func (p *Project) runIDOfDir(runDir string) (string, error) {
	id := filepath.Base(runDir)
	if !ValidRunID(id) || filepath.Clean(runDir) != p.RunDir(id) {
		return "", fmt.Errorf("internal error: %s is not a run directory of %s", runDir, p.Root)
	}
	return id, nil
}

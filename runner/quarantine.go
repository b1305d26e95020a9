package runner

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// quarantine is a scratch object directory in the run directory. While a
// landing is being built, git writes its objects (the patch's blobs, the
// tree, the commit) there and reads the project's own through
// GIT_ALTERNATE_OBJECT_DIRECTORIES, so nothing of a change enters the
// project's object store before it is accepted and about to land: a
// worktree apply never puts anything there, a branch landing moves its
// objects in just before the ref update, and a refused or failed landing
// leaves the project's .git exactly as it was.
type quarantine struct {
	dir     string // the scratch object directory
	project string // the project's object directory
}

func newQuarantine(scratch string, p *Project) (*quarantine, error) {
	if err := os.MkdirAll(scratch, 0o700); err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(scratch, "objects-")
	if err != nil {
		return nil, fmt.Errorf("scratch object directory: %w", err)
	}
	return &quarantine{dir: dir, project: p.ObjectsDir()}, nil
}

// env points git's writes at the quarantine and its reads at both.
func (q *quarantine) env() []string {
	return []string{"GIT_OBJECT_DIRECTORY=" + q.dir, "GIT_ALTERNATE_OBJECT_DIRECTORIES=" + q.project}
}

func (q *quarantine) remove() { _ = os.RemoveAll(q.dir) }

// migrate moves the quarantined objects into the project's store, the way
// git moves a push's quarantine: each file that is not there yet goes in
// under its own name (temp file + rename), pack indexes after their packs,
// so a reader never sees an index without its pack.
func (q *quarantine) migrate() error {
	var files []string
	err := filepath.WalkDir(q.dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return err
	}
	sort.SliceStable(files, func(i, j int) bool {
		return !strings.HasSuffix(files[i], ".idx") && strings.HasSuffix(files[j], ".idx")
	})
	for _, src := range files {
		rel, err := filepath.Rel(q.dir, src)
		if err != nil || strings.HasPrefix(rel, "..") {
			return fmt.Errorf("quarantined object %s: outside %s", src, q.dir)
		}
		if strings.HasPrefix(rel, "info"+string(filepath.Separator)) {
			continue
		}
		dst := filepath.Join(q.project, rel)
		if _, err := os.Lstat(dst); err == nil {
			continue // content-addressed: the same object is already there
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := copyInto(src, dst); err != nil {
			return fmt.Errorf("move object %s into the project: %w", rel, err)
		}
	}
	return nil
}

// copyInto writes src to dst read-only, through a temp file and a rename.
func copyInto(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	tmp, err := os.CreateTemp(filepath.Dir(dst), "tmp_obj_")
	if err != nil {
		return err
	}
	if _, err := io.Copy(tmp, in); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o444); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

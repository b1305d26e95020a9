package gitdir

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/sentinelhq/sentinel/internal/nofollow"
)

// MaxRefs bounds how many refs are read (a mirror of a large host has
// hundreds of thousands); past it ReadRefs says it stopped.
const MaxRefs = 200000

// RefState is one git dir's refs at a moment: every ref, HEAD (its
// symbolic target "ref: …" or a detached id) and how many entries the
// stash's log holds. It is what an in-place run (exec) and sentinel mcp
// compare before and after, so that a branch or tag moved or deleted is
// named with how to put it back, and a replace ref is seen whatever the
// repository's ref storage.
type RefState struct {
	Head  string
	Refs  map[string]string // name → object id, or "ref: target" for a symbolic ref
	Stash int
	// Stored are the refs not kept as loose files (packed-refs, or every
	// ref of a reftable repository): a replace ref there has no file to
	// move out and must be deleted with git.
	Stored map[string]string
	// Reftable: the refs were read from reftable/.
	Reftable bool
}

// ReadRefs reads gitDir's HEAD and the refs of common (and of gitDir, for
// a linked worktree's own refs) from the files, no git started: loose over
// packed, or a reftable stack (reftable.go). A ref with no reflog counts,
// and a ref whose object is missing is still seen.
func ReadRefs(gitDir, common string) (*RefState, error) {
	s := &RefState{Refs: map[string]string{}, Stored: map[string]string{}}
	head, err := readSmall(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return nil, err
	}
	s.Head = strings.TrimSpace(string(head))
	if IsReftable(common) {
		return s, s.readReftable(gitDir, common)
	}
	if err := s.readPacked(filepath.Join(common, "packed-refs")); err != nil {
		return nil, err
	}
	for _, d := range refDirs(gitDir, common) {
		if err := s.readLoose(d); err != nil {
			return nil, err
		}
	}
	if b, err := readSmallN(filepath.Join(common, "logs", "refs", "stash"), 64<<20); err == nil {
		s.Stash = strings.Count(string(b), "\n")
	}
	return s, nil
}

// Refs is ReadRefs as one map with HEAD among the refs; empty (HEAD
// aside) when the refs cannot be read.
func Refs(gitDir, common string) map[string]string {
	s, err := ReadRefs(gitDir, common)
	if err != nil {
		out := map[string]string{}
		if b, err := readSmall(filepath.Join(gitDir, "HEAD")); err == nil {
			out["HEAD"] = strings.TrimSpace(string(b))
		}
		return out
	}
	out := make(map[string]string, len(s.Refs)+1)
	for k, v := range s.Refs {
		out[k] = v
	}
	out["HEAD"] = s.Head
	return out
}

// refDirs are the dirs whose refs/ and reftable/ hold gitDir's refs.
func refDirs(gitDir, common string) []string {
	if filepath.Clean(gitDir) != filepath.Clean(common) {
		return []string{common, gitDir}
	}
	return []string{common}
}

// readReftable reads the common dir's stack, then a linked worktree's own
// (its HEAD and per-worktree refs). The HEAD file of a reftable repository
// is a stub; the real HEAD is the worktree's table's.
func (s *RefState) readReftable(gitDir, common string) error {
	s.Reftable = true
	for i, d := range refDirs(gitDir, common) {
		refs, logs, err := reftableStack(filepath.Join(d, "reftable"), newTableBudget(), "refs/stash")
		if err != nil {
			if i > 0 && os.IsNotExist(err) {
				continue
			}
			return err
		}
		for k, v := range refs {
			if len(s.Refs) >= MaxRefs {
				return fmt.Errorf("more than %d refs", MaxRefs)
			}
			if k == "HEAD" {
				s.Head = v
				continue
			}
			if !strings.HasPrefix(k, "refs/") {
				continue // ORIG_HEAD and the like, files beside HEAD in the files backend
			}
			s.Refs[k] = v
			s.Stored[k] = v
		}
		s.Stash += logs["refs/stash"]
	}
	return nil
}

func (s *RefState) readPacked(path string) error {
	f, err := nofollow.OpenFile(path, os.O_RDONLY, 0)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 64*1024)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' || line[0] == '^' {
			continue
		}
		if len(s.Refs) >= MaxRefs {
			return fmt.Errorf("more than %d refs", MaxRefs)
		}
		if id, name, ok := strings.Cut(line, " "); ok {
			s.Refs[name] = id
			s.Stored[name] = id
		}
	}
	return sc.Err()
}

func (s *RefState) readLoose(gitDir string) error {
	root := filepath.Join(gitDir, "refs")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) && path == root {
				return filepath.SkipDir
			}
			return err
		}
		if !d.Type().IsRegular() || strings.HasSuffix(path, ".lock") {
			return nil
		}
		if len(s.Refs) >= MaxRefs {
			return fmt.Errorf("more than %d refs", MaxRefs)
		}
		b, err := readSmall(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(gitDir, path)
		s.Refs[filepath.ToSlash(rel)] = strings.TrimSpace(string(b))
		return nil
	})
	if os.IsNotExist(err) {
		return nil
	}
	return err
}

// ObjectID says whether s is a full object name (40 hex digits, or 64
// for SHA-256): what a ref the coder could write must be before it is
// given to git as a revision, never an option.
func ObjectID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

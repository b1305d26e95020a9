package mcpserver

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The file tools reach what they act on one directory at a time, from the
// configured root, through open directory handles (see dirFS): every
// component is opened without following a symlink and checked for what it
// is — its identity against Sentinel's own state, and, for a write,
// whether it is a git dir — before the next is opened beneath it. So the
// directory finally held is known by what it and each of its ancestors
// are, not by how the path was spelled, and a component swapped after the
// check cannot lead anywhere the walk did not check.

// reached is an entry held by its directory: dir is an open handle on the
// directory that holds it, name its name there ("" when the place is the
// configured root itself, which dir then is).
type reached struct {
	pl   Place
	dir  dirFS
	name string
}

func (r reached) close() { r.dir.Close() }

// at is the name to pass to an *at call for the entry itself.
func (r reached) at() string {
	if r.name == "" {
		return "."
	}
	return r.name
}

// lstat is the entry's own metadata (a symlink is the link).
func (r reached) lstat() (fs.FileInfo, error) { return r.dir.Lstat(r.at()) }

// reach opens the directory holding pl's entry, checking the configured
// root, each of its ancestors and each component on the way (and the entry
// itself when it exists): Sentinel's own state is refused for every access;
// a write also refuses anything in or of a git dir, and a new entry that
// would turn its directory into one.
func (s *Server) reach(pl Place, want string) (reached, error) {
	write := want == AccessReadWrite
	if err := s.state.checkText(pl.Abs); err != nil {
		return reached{}, err
	}
	for a := pl.Root; ; a = filepath.Dir(a) {
		if fi, err := os.Stat(a); err == nil {
			if err := s.state.check(fi, pl.Abs); err != nil {
				return reached{}, err
			}
		}
		if write && (isGitName(filepath.Base(a)) || looksLikeGitDirPath(s.files, a)) {
			return reached{}, gitRefusal(pl.Abs, a)
		}
		if filepath.Dir(a) == a {
			break
		}
	}
	dir, err := s.files.OpenRoot(pl.Root)
	if err != nil {
		return reached{}, fileErr(pl, err)
	}
	if pl.Rel == "." {
		return reached{pl: pl, dir: dir}, nil
	}
	parts := strings.Split(filepath.ToSlash(pl.Rel), "/")
	sofar := pl.Root
	for _, c := range parts[:len(parts)-1] {
		next, err := dir.OpenDir(c)
		dir.Close()
		if err != nil {
			return reached{}, fileErr(pl, walkErr(err))
		}
		dir = next
		sofar = filepath.Join(sofar, c)
		fi, err := dir.Stat()
		if err != nil {
			dir.Close()
			return reached{}, fileErr(pl, err)
		}
		if err := s.state.check(fi, pl.Abs); err != nil {
			dir.Close()
			return reached{}, err
		}
		if write && (isGitName(c) || looksLikeGitDir(dir)) {
			dir.Close()
			return reached{}, gitRefusal(pl.Abs, sofar)
		}
	}
	r := reached{pl: pl, dir: dir, name: parts[len(parts)-1]}
	if err := s.checkEntry(r, write); err != nil {
		r.close()
		return reached{}, err
	}
	return r, nil
}

// checkEntry checks the entry itself: not Sentinel's state; for a write,
// not a git dir, a .git file or a name that would make its directory one.
func (s *Server) checkEntry(r reached, write bool) error {
	fi, err := r.lstat()
	exists := err == nil
	if exists {
		if err := s.state.check(fi, r.pl.Abs); err != nil {
			return err
		}
	}
	if !write {
		return nil
	}
	if isGitName(r.name) {
		return gitRefusal(r.pl.Abs, r.pl.Abs)
	}
	if exists && isPlainDir(fi) {
		if d, err := r.dir.OpenDir(r.name); err == nil {
			git := looksLikeGitDir(d)
			d.Close()
			if git {
				return gitRefusal(r.pl.Abs, r.pl.Abs)
			}
		}
	}
	if wouldMakeGitDir(r.dir, r.name) {
		return &Refusal{Class: ClassReadOnlyPath, Rule: "git dir", Reason: r.pl.Abs + " would make " + filepath.Dir(r.pl.Abs) + " a git dir (git would run what its config says)",
			Use: "choose another name; ask the person to set up repositories themselves"}
	}
	return nil
}

// walkErr says what a failed step of the walk means: a component that is a
// symlink (or no longer a directory) was changed after the path was checked.
func walkErr(err error) error {
	if errors.Is(err, errLinked) || errors.Is(err, errNotDir) {
		return errLinked
	}
	return err
}

// openEntry opens the entry itself, never through a symlink.
func (r reached) openEntry(flags int) (*os.File, error) {
	f, err := r.dir.OpenFile(r.at(), flags, 0)
	if err != nil {
		return nil, fileErr(r.pl, err)
	}
	return f, nil
}

// maxScanEntries bounds the walk that checks a directory before it is moved
// or deleted whole.
const maxScanEntries = 200000

// scanTree checks a directory about to be moved or deleted whole: nothing
// under it may be Sentinel's state or a git dir (moving a repository's
// directory carries its git dir along, and back again).
func (s *Server) scanTree(r reached) error {
	d, err := r.dir.OpenDir(r.at())
	if err != nil {
		return fileErr(r.pl, walkErr(err))
	}
	n := 0
	return s.scanDir(d, r.pl.Abs, &n)
}

func (s *Server) scanDir(dir dirFS, abs string, n *int) error {
	defer dir.Close()
	if looksLikeGitDir(dir) {
		return gitRefusal(abs, abs)
	}
	names, err := dir.Names()
	if err != nil {
		return fmt.Errorf("%s: %w", abs, err)
	}
	for _, name := range names {
		if *n++; *n > maxScanEntries {
			return &Refusal{Class: ClassLimit, Reason: fmt.Sprintf("%s holds more than %d entries, too many to check for git dirs and Sentinel's state", abs, maxScanEntries), Use: "work on a smaller directory"}
		}
		p := filepath.Join(abs, name)
		if isGitName(name) {
			return gitRefusal(p, p)
		}
		fi, err := dir.Lstat(name)
		if err != nil {
			continue
		}
		if err := s.state.check(fi, p); err != nil {
			return err
		}
		if !fi.IsDir() {
			continue
		}
		sub, err := dir.OpenDir(name)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		if err := s.scanDir(sub, p, n); err != nil {
			return err
		}
	}
	return nil
}

//go:build unix

package mcpserver

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// The file tools reach what they act on one directory at a time, from the
// configured root, through open directory handles: every component is
// opened without following a symlink and checked for what it is — its
// device and inode against Sentinel's own state, and, for a write, whether
// it is a git dir — before the next is opened beneath it. So the directory
// finally held is known by what it and each of its ancestors are, not by
// how the path was spelled, and a component swapped after the check cannot
// lead anywhere the walk did not check.

// ident is what a file is: its device and inode.
type ident struct{ dev, ino uint64 }

func identOf(st *unix.Stat_t) ident { return ident{dev: uint64(st.Dev), ino: st.Ino} }

// reached is an entry held by its directory: dir is an open handle on the
// directory that holds it, name its name there ("" when the place is the
// configured root itself, which dir then is).
type reached struct {
	pl   Place
	dir  int
	name string
}

func (r reached) close() { unix.Close(r.dir) }

// at is the name to pass to an *at call for the entry itself.
func (r reached) at() string {
	if r.name == "" {
		return "."
	}
	return r.name
}

// lstat is the entry's own metadata (a symlink is the link).
func (r reached) lstat() (unix.Stat_t, error) {
	var st unix.Stat_t
	err := unix.Fstatat(r.dir, r.at(), &st, unix.AT_SYMLINK_NOFOLLOW)
	return st, err
}

func openDirAt(dir int, name string) (int, error) {
	return unix.Openat(dir, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
}

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
		var st unix.Stat_t
		if err := unix.Stat(a, &st); err == nil {
			if err := s.state.check(identOf(&st), pl.Abs); err != nil {
				return reached{}, err
			}
		}
		if write && (isGitName(filepath.Base(a)) || looksLikeGitDirPath(a)) {
			return reached{}, gitRefusal(pl.Abs, a)
		}
		if a == "/" {
			break
		}
	}
	dir, err := unix.Open(pl.Root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return reached{}, fileErr(pl, err)
	}
	if pl.Rel == "." {
		return reached{pl: pl, dir: dir}, nil
	}
	parts := strings.Split(filepath.ToSlash(pl.Rel), "/")
	sofar := pl.Root
	for _, c := range parts[:len(parts)-1] {
		next, err := openDirAt(dir, c)
		unix.Close(dir)
		if err != nil {
			return reached{}, fileErr(pl, walkErr(err))
		}
		dir = next
		sofar = filepath.Join(sofar, c)
		var st unix.Stat_t
		if err := unix.Fstat(dir, &st); err != nil {
			unix.Close(dir)
			return reached{}, fileErr(pl, err)
		}
		if err := s.state.check(identOf(&st), pl.Abs); err != nil {
			unix.Close(dir)
			return reached{}, err
		}
		if write && (isGitName(c) || looksLikeGitDir(dir)) {
			unix.Close(dir)
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
	st, err := r.lstat()
	exists := err == nil
	if exists {
		if err := s.state.check(identOf(&st), r.pl.Abs); err != nil {
			return err
		}
	}
	if !write {
		return nil
	}
	if isGitName(r.name) {
		return gitRefusal(r.pl.Abs, r.pl.Abs)
	}
	if exists && st.Mode&unix.S_IFMT == unix.S_IFDIR {
		if d, err := openDirAt(r.dir, r.name); err == nil {
			git := looksLikeGitDir(d)
			unix.Close(d)
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
	if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
		return unix.ELOOP
	}
	return err
}

// openEntry opens the entry itself, never through a symlink.
func (r reached) openEntry(flags int) (*os.File, error) {
	fd, err := unix.Openat(r.dir, r.at(), flags|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fileErr(r.pl, err)
	}
	return os.NewFile(uintptr(fd), r.pl.Abs), nil
}

// maxScanEntries bounds the walk that checks a directory before it is moved
// or deleted whole.
const maxScanEntries = 200000

// scanTree checks a directory about to be moved or deleted whole: nothing
// under it may be Sentinel's state or a git dir (moving a repository's
// directory carries its git dir along, and back again).
func (s *Server) scanTree(r reached) error {
	d, err := openDirAt(r.dir, r.at())
	if err != nil {
		return fileErr(r.pl, walkErr(err))
	}
	n := 0
	return s.scanDir(d, r.pl.Abs, &n)
}

func (s *Server) scanDir(dir int, abs string, n *int) error {
	f := os.NewFile(uintptr(dir), abs)
	defer f.Close()
	if looksLikeGitDir(dir) {
		return gitRefusal(abs, abs)
	}
	names, err := f.Readdirnames(-1)
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
		var st unix.Stat_t
		if err := unix.Fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			continue
		}
		if err := s.state.check(identOf(&st), p); err != nil {
			return err
		}
		if st.Mode&unix.S_IFMT != unix.S_IFDIR {
			continue
		}
		sub, err := openDirAt(dir, name)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		if err := s.scanDir(sub, p, n); err != nil {
			return err
		}
	}
	return nil
}

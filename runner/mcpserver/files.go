//go:build unix

package mcpserver

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// maxSearchFiles bounds how many files one search reads.
const maxSearchFiles = 20000

// openRead opens the regular file at pl for reading, reached one checked
// directory at a time (see reach) and without following a symlink.
func (s *Server) openRead(pl Place) (*os.File, fs.FileInfo, error) {
	r, err := s.reach(pl, AccessRead)
	if err != nil {
		return nil, nil, err
	}
	defer r.close()
	f, err := r.openEntry(os.O_RDONLY | syscall.O_NONBLOCK)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		if err := s.state.check(ident{dev: uint64(st.Dev), ino: st.Ino}, pl.Abs); err != nil {
			f.Close()
			return nil, nil, err
		}
	}
	if fi.IsDir() {
		f.Close()
		return nil, nil, &Refusal{Class: ClassBadInput, Reason: pl.Abs + " is a directory", Use: "use the list tool for directories"}
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, &Refusal{Class: ClassBadInput, Reason: pl.Abs + " is not a regular file (" + fi.Mode().Type().String() + ")", Use: "read regular files only"}
	}
	return f, fi, nil
}

// openDir opens the directory at pl, reached as openRead reaches a file.
func (s *Server) openDir(pl Place) (*os.File, error) {
	r, err := s.reach(pl, AccessRead)
	if err != nil {
		return nil, err
	}
	defer r.close()
	d, err := r.openEntry(os.O_RDONLY | syscall.O_DIRECTORY)
	if err != nil {
		if errors.Is(err, syscall.ENOTDIR) {
			return nil, &Refusal{Class: ClassBadInput, Reason: pl.Abs + " is not a directory", Use: "use the read tool for files"}
		}
		var ref *Refusal
		if errors.As(err, &ref) && ref.Class == ClassPathNotAllowed {
			// ELOOP: a symlink (the list of a link is refused as before).
			return nil, ref
		}
		return nil, err
	}
	return d, nil
}

func fileErr(pl Place, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &Refusal{Class: ClassNotFound, Reason: pl.Abs + " does not exist", Use: "list the directory to see what is there"}
	case errors.Is(err, syscall.ELOOP):
		return &Refusal{Class: ClassPathNotAllowed, Rule: "paths", Reason: pl.Abs + " became a symlink after it was checked", Use: "use the target's own path"}
	case strings.Contains(err.Error(), "escapes from parent"), strings.Contains(err.Error(), "path escapes"):
		return &Refusal{Class: ClassPathNotAllowed, Rule: "paths", Reason: pl.Abs + " leads outside " + pl.Root + " through a symlink", Use: "use paths under the configured roots"}
	}
	return fmt.Errorf("%s: %w", pl.Abs, err)
}

func (s *Server) read(p string, offset int64, maxBytes int64) (string, int, error) {
	pl, err := s.cfg.Resolve(p, AccessRead)
	if err != nil {
		return "", 0, err
	}
	f, fi, err := s.openRead(pl)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	limit := s.cfg.Limits.MaxReadBytes
	if maxBytes > 0 && maxBytes < limit {
		limit = maxBytes
	}
	if offset < 0 || offset > fi.Size() {
		return "", 0, &Refusal{Class: ClassBadInput, Reason: fmt.Sprintf("offset %d is outside the file (%d bytes)", offset, fi.Size()), Use: "give an offset from 0 to the file's size"}
	}
	buf := make([]byte, limit)
	n, err := f.ReadAt(buf, offset)
	if err != nil && err != io.EOF {
		return "", 0, fileErr(pl, err)
	}
	buf = buf[:n]
	if bytes.IndexByte(buf, 0) >= 0 {
		return fmt.Sprintf("%s is a binary file (%d bytes); not shown", pl.Abs, fi.Size()), 0, nil
	}
	text := string(buf)
	if end := offset + int64(n); end < fi.Size() {
		text += fmt.Sprintf("\n[truncated: bytes %d-%d of %d shown; read again with offset=%d]", offset, end, fi.Size(), end)
	}
	return text, n, nil
}

func (s *Server) list(p string) (string, int, error) {
	pl, err := s.cfg.Resolve(p, AccessRead)
	if err != nil {
		return "", 0, err
	}
	d, err := s.openDir(pl)
	if err != nil {
		return "", 0, err
	}
	defer d.Close()
	max := s.cfg.Limits.MaxListEntries
	names, err := d.Readdirnames(max + 1)
	if err != nil && err != io.EOF {
		return "", 0, fileErr(pl, err)
	}
	sort.Strings(names)
	dfd := int(d.Fd())
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s)\n", pl.Abs, pl.Access)
	for i, name := range names {
		if i == max {
			fmt.Fprintf(&b, "[more than %d entries; list a subdirectory or search]\n", max)
			break
		}
		var st unix.Stat_t
		switch err := unix.Fstatat(dfd, name, &st, unix.AT_SYMLINK_NOFOLLOW); {
		case err != nil:
			fmt.Fprintf(&b, "?    %s\n", name)
		case st.Mode&unix.S_IFMT == unix.S_IFLNK:
			buf := make([]byte, unix.PathMax)
			n, err := unix.Readlinkat(dfd, name, buf)
			if err != nil {
				n = 0
			}
			fmt.Fprintf(&b, "link %s -> %s\n", name, buf[:n])
		case st.Mode&unix.S_IFMT == unix.S_IFDIR:
			fmt.Fprintf(&b, "dir  %s/\n", name)
		default:
			fmt.Fprintf(&b, "file %s %d %s\n", name, st.Size, fs.FileMode(st.Mode&0o777))
		}
	}
	return b.String(), b.Len(), nil
}

func (s *Server) search(p, pattern string, regex bool, glob string) (string, int, error) {
	if pattern == "" {
		return "", 0, &Refusal{Class: ClassBadInput, Reason: "empty pattern", Use: "give the text (or regex=true and a regular expression) to look for"}
	}
	match := func(line string) bool { return strings.Contains(line, pattern) }
	if regex {
		re, err := regexp.Compile(pattern)
		if err != nil {
			return "", 0, &Refusal{Class: ClassBadInput, Reason: "pattern: " + err.Error(), Use: "fix the regular expression (Go RE2 syntax)"}
		}
		match = re.MatchString
	}
	if glob != "" {
		if _, err := path.Match(glob, "x"); err != nil {
			return "", 0, &Refusal{Class: ClassBadInput, Reason: "glob: " + err.Error(), Use: "give a file-name pattern such as *.go"}
		}
	}
	pl, err := s.cfg.Resolve(p, AccessRead)
	if err != nil {
		return "", 0, err
	}
	r, err := s.reach(pl, AccessRead)
	if err != nil {
		return "", 0, err
	}
	defer r.close()
	var b strings.Builder
	found, files := 0, 0
	max := s.cfg.Limits.MaxSearchResults
	stop := errors.New("stop")
	// file searches one regular file (name in dir).
	file := func(dir int, name, abs string, size int64) error {
		if glob != "" {
			if ok, _ := path.Match(glob, name); !ok {
				return nil
			}
		}
		if files++; files > maxSearchFiles {
			fmt.Fprintf(&b, "[stopped after %d files; search a subdirectory]\n", maxSearchFiles)
			return stop
		}
		if size > s.cfg.Limits.MaxReadBytes {
			return nil
		}
		fd, err := unix.Openat(dir, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		if err != nil {
			return nil
		}
		f := os.NewFile(uintptr(fd), abs)
		data, err := io.ReadAll(io.LimitReader(f, s.cfg.Limits.MaxReadBytes))
		f.Close()
		if err != nil || bytes.IndexByte(data, 0) >= 0 {
			return nil
		}
		for i, line := range strings.Split(string(data), "\n") {
			if !match(line) {
				continue
			}
			if found == max {
				fmt.Fprintf(&b, "[more than %d matches; narrow the search]\n", max)
				return stop
			}
			found++
			if len(line) > 300 {
				line = line[:300] + "…"
			}
			fmt.Fprintf(&b, "%s:%d: %s\n", abs, i+1, line)
		}
		return nil
	}
	// walk searches the open directory dir, in name order, skipping what no
	// tool shows (Sentinel's state, credentials) and never following a link.
	var walk func(dir int, abs string) error
	walk = func(dir int, abs string) error {
		d := os.NewFile(uintptr(dir), abs)
		defer d.Close()
		names, err := d.Readdirnames(-1)
		if err != nil {
			return nil // unreadable: skipped
		}
		sort.Strings(names)
		for _, name := range names {
			p := filepath.Join(abs, name)
			var st unix.Stat_t
			if unix.Fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil || s.state.check(identOf(&st), p) != nil || s.cfg.guards.check(p, AccessRead) != nil {
				continue
			}
			switch st.Mode & unix.S_IFMT {
			case unix.S_IFDIR:
				sub, err := openDirAt(dir, name)
				if err != nil {
					continue
				}
				if err := walk(sub, p); err != nil {
					return err
				}
			case unix.S_IFREG:
				if err := file(dir, name, p, st.Size); err != nil {
					return err
				}
			}
		}
		return nil
	}
	st, err := r.lstat()
	switch {
	case err != nil:
		err = fileErr(pl, err)
	case st.Mode&unix.S_IFMT == unix.S_IFREG:
		err = file(r.dir, r.at(), pl.Abs, st.Size)
	case st.Mode&unix.S_IFMT == unix.S_IFDIR:
		var d int
		if d, err = openDirAt(r.dir, r.at()); err != nil {
			err = fileErr(pl, walkErr(err))
		} else {
			err = walk(d, pl.Abs)
		}
	}
	if err != nil && err != stop {
		return "", 0, err
	}
	if found == 0 {
		return "no matches under " + pl.Abs, 0, nil
	}
	return b.String(), b.Len(), nil
}

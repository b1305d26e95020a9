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
	f, err := r.openEntry(os.O_RDONLY | oNonblock)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if err := s.state.check(fi, pl.Abs); err != nil {
		f.Close()
		return nil, nil, err
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
func (s *Server) openDir(pl Place) (dirFS, error) {
	r, err := s.reach(pl, AccessRead)
	if err != nil {
		return nil, err
	}
	defer r.close()
	d, err := r.dir.OpenDir(r.at())
	if err != nil {
		if errors.Is(err, errNotDir) {
			return nil, &Refusal{Class: ClassBadInput, Reason: pl.Abs + " is not a directory", Use: "use the read tool for files"}
		}
		// a symlink (the list of a link is refused as before)
		return nil, fileErr(pl, err)
	}
	return d, nil
}

func fileErr(pl Place, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &Refusal{Class: ClassNotFound, Reason: pl.Abs + " does not exist", Use: "list the directory to see what is there"}
	case errors.Is(err, errLinked), errors.Is(err, syscall.ELOOP):
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
	names, err := d.Names()
	if err != nil {
		return "", 0, fileErr(pl, err)
	}
	sort.Strings(names)
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s)\n", pl.Abs, pl.Access)
	for i, name := range names {
		if i == max {
			fmt.Fprintf(&b, "[more than %d entries; list a subdirectory or search]\n", max)
			break
		}
		switch fi, err := d.Lstat(name); {
		case err != nil:
			fmt.Fprintf(&b, "?    %s\n", name)
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := d.Readlink(name)
			fmt.Fprintf(&b, "link %s -> %s\n", name, target)
		case fi.IsDir():
			fmt.Fprintf(&b, "dir  %s/\n", name)
		default:
			fmt.Fprintf(&b, "file %s %d %s\n", name, fi.Size(), fi.Mode().Perm())
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
	file := func(dir dirFS, name, abs string, size int64) error {
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
		f, err := dir.OpenFile(name, os.O_RDONLY|oNonblock, 0)
		if err != nil {
			return nil
		}
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
	var walk func(dir dirFS, abs string) error
	walk = func(dir dirFS, abs string) error {
		defer dir.Close()
		names, err := dir.Names()
		if err != nil {
			return nil // unreadable: skipped
		}
		sort.Strings(names)
		for _, name := range names {
			p := filepath.Join(abs, name)
			fi, err := dir.Lstat(name)
			if err != nil || s.state.check(fi, p) != nil || s.cfg.guards.check(p, AccessRead) != nil {
				continue
			}
			switch {
			case isPlainDir(fi):
				sub, err := dir.OpenDir(name)
				if err != nil {
					continue
				}
				if err := walk(sub, p); err != nil {
					return err
				}
			case fi.Mode().IsRegular():
				if err := file(dir, name, p, fi.Size()); err != nil {
					return err
				}
			}
		}
		return nil
	}
	fi, err := r.lstat()
	switch {
	case err != nil:
		err = fileErr(pl, err)
	case fi.Mode().IsRegular():
		err = file(r.dir, r.at(), pl.Abs, fi.Size())
	case fi.IsDir():
		var d dirFS
		if d, err = r.dir.OpenDir(r.at()); err != nil {
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

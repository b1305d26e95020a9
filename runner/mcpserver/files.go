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
	"strings"
	"syscall"

	"github.com/sentinelhq/sentinel/internal/nofollow"
)

// maxSearchFiles bounds how many files one search reads.
const maxSearchFiles = 20000

// openRead opens the regular file at pl for reading, beneath its root and
// without following a symlink in its last component.
func openRead(pl Place) (*os.File, fs.FileInfo, error) {
	root, err := openRoot(pl)
	if err != nil {
		return nil, nil, err
	}
	defer root.Close()
	f, err := nofollow.OpenIn(root, pl.Rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, fileErr(pl, err)
	}
	fi, err := f.Stat()
	if err != nil {
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
	f, fi, err := openRead(pl)
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
	root, err := openRoot(pl)
	if err != nil {
		return "", 0, err
	}
	defer root.Close()
	d, err := nofollow.OpenDirIn(root, pl.Rel)
	if err != nil {
		if errors.Is(err, syscall.ENOTDIR) {
			return "", 0, &Refusal{Class: ClassBadInput, Reason: pl.Abs + " is not a directory", Use: "use the read tool for files"}
		}
		return "", 0, fileErr(pl, err)
	}
	defer d.Close()
	max := s.cfg.Limits.MaxListEntries
	ents, err := d.ReadDir(max + 1)
	if err != nil && err != io.EOF {
		return "", 0, fileErr(pl, err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s)\n", pl.Abs, pl.Access)
	for i, e := range ents {
		if i == max {
			fmt.Fprintf(&b, "[more than %d entries; list a subdirectory or search]\n", max)
			break
		}
		info, ierr := e.Info()
		switch {
		case ierr != nil:
			fmt.Fprintf(&b, "?    %s\n", e.Name())
		case e.Type()&fs.ModeSymlink != 0:
			target, _ := root.Readlink(path.Join(pl.Rel, e.Name()))
			fmt.Fprintf(&b, "link %s -> %s\n", e.Name(), target)
		case e.IsDir():
			fmt.Fprintf(&b, "dir  %s/\n", e.Name())
		default:
			fmt.Fprintf(&b, "file %s %d %s\n", e.Name(), info.Size(), info.Mode().Perm())
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
	root, err := openRoot(pl)
	if err != nil {
		return "", 0, err
	}
	defer root.Close()
	fsys := root.FS()
	var b strings.Builder
	found, files := 0, 0
	max := s.cfg.Limits.MaxSearchResults
	stop := errors.New("stop")
	err = fs.WalkDir(fsys, filepath.ToSlash(pl.Rel), func(rel string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable: skipped
		}
		if !d.Type().IsRegular() {
			return nil // directories are walked; links and devices are not followed
		}
		if glob != "" {
			if ok, _ := path.Match(glob, d.Name()); !ok {
				return nil
			}
		}
		if files++; files > maxSearchFiles {
			fmt.Fprintf(&b, "[stopped after %d files; search a subdirectory]\n", maxSearchFiles)
			return stop
		}
		info, err := d.Info()
		if err != nil || info.Size() > s.cfg.Limits.MaxReadBytes {
			return nil
		}
		f, err := nofollow.OpenIn(root, rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
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
			fmt.Fprintf(&b, "%s:%d: %s\n", filepath.Join(pl.Root, rel), i+1, line)
		}
		return nil
	})
	if err != nil && err != stop {
		return "", 0, fileErr(pl, err)
	}
	if found == 0 {
		return "no matches under " + pl.Abs, 0, nil
	}
	return b.String(), b.Len(), nil
}

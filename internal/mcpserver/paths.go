package mcpserver

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxLinks bounds the symlinks followed while canonicalising one path (the
// kernel's own limit is 40).
const maxLinks = 40

// errLoop is a path with too many symlinks to follow.
var errLoop = errors.New("too many levels of symbolic links")

// Canonical resolves p as the kernel would: it must be absolute; each
// component is taken in turn, a symlink is replaced by its target (relative
// targets against the directory holding the link), and `..` goes up from
// the directory reached so far — not from the text, so `link/..` is the
// link target's parent. Components that do not exist (yet) are kept as
// written after the last one that does, and a `..` after one that does not
// exist is an error (as it is for the kernel). The result is absolute, clean and
// holds no symlink among its existing components.
func Canonical(p string) (string, error) {
	return canonical(p, os.Lstat, os.Readlink)
}

func canonical(p string, lstat func(string) (fs.FileInfo, error), readlink func(string) (string, error)) (string, error) {
	if p == "" || !filepath.IsAbs(p) {
		return "", fmt.Errorf("path %q is not absolute: give a full path", p)
	}
	if strings.IndexByte(p, 0) >= 0 {
		return "", fmt.Errorf("path %q holds a NUL byte", p)
	}
	done, todo := rootOf(p), splitPath(p)
	links := 0
	missing := false // a component did not exist: the rest are taken as written
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			if missing {
				// The kernel cannot go up from a directory that does
				// not exist; taking the text's word for it would let
				// the rest be read lexically past a symlink.
				return "", fmt.Errorf("path %s: %s does not exist, so the .. after it cannot be followed", p, done)
			}
			done = filepath.Dir(done)
			continue
		}
		next := filepath.Join(done, c)
		if missing {
			done = next
			continue
		}
		fi, err := lstat(next)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				missing = true
				done = next
				continue
			}
			return "", fmt.Errorf("path %s: %w", p, err)
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			if !fi.IsDir() && len(todo) > 0 && hasMore(todo) {
				return "", fmt.Errorf("path %s: %s is not a directory", p, next)
			}
			done = next
			continue
		}
		links++
		if links > maxLinks {
			return "", fmt.Errorf("path %s: %w", p, errLoop)
		}
		target, err := readlink(next)
		if err != nil {
			return "", fmt.Errorf("path %s: %w", p, err)
		}
		if strings.IndexByte(target, 0) >= 0 {
			return "", fmt.Errorf("path %s: a symlink target holds a NUL byte", p)
		}
		if filepath.IsAbs(target) {
			done = rootOf(target)
		}
		todo = append(splitPath(target), todo...)
	}
	return filepath.Clean(done), nil
}

// hasMore says whether components other than "." and "" remain (a trailing
// slash or "." after a file is the file; "x/.." after a file is not).
func hasMore(todo []string) bool {
	for _, c := range todo {
		if c != "" && c != "." {
			return true
		}
	}
	return false
}

// rootOf is the root an absolute path starts from: "/", or on Windows its
// volume and a separator (`C:\`, `\\server\share\`).
func rootOf(p string) string { return filepath.VolumeName(p) + string(filepath.Separator) }

// splitPath is p's components after its volume (a separator is either
// slash on Windows).
func splitPath(p string) []string {
	return strings.Split(filepath.ToSlash(p[len(filepath.VolumeName(p)):]), "/")
}

// within says whether p is root or lies under it (both canonical; on
// Windows compared without regard to case, as its file systems do).
func within(p, root string) bool {
	if root == rootOf(root) {
		return len(p) >= len(root) && samePathText(p[:len(root)], root)
	}
	sep := string(filepath.Separator)
	return samePathText(p, root) || len(p) > len(root) && samePathText(p[:len(root)+1], root+sep)
}

// lastSep is the index of p's last path separator, or -1.
func lastSep(p string) int {
	for i := len(p) - 1; i >= 0; i-- {
		if os.IsPathSeparator(p[i]) {
			return i
		}
	}
	return -1
}

// Place is a canonical path and the configured root it lies under.
type Place struct {
	Abs    string // canonical absolute path
	Root   string // the configured root (canonical) that holds it
	Rel    string // Abs relative to Root ("." for the root itself)
	Access string // r or rw
}

// place finds the root holding the canonical path abs: the most specific
// one (config refuses an r root inside an rw root, so the most specific is
// also the most permissive that applies).
func (c *Config) place(abs string) (Place, bool) {
	best := -1
	for i, p := range c.Paths {
		if within(abs, p.real) && (best < 0 || len(p.real) > len(c.Paths[best].real)) {
			best = i
		}
	}
	if best < 0 {
		return Place{}, false
	}
	r := c.Paths[best].real
	rel, err := filepath.Rel(r, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return Place{}, false
	}
	return Place{Abs: abs, Root: r, Rel: rel, Access: c.Paths[best].Access}, true
}

// Resolve canonicalises p and checks it lies under a configured path with
// at least the access wanted. A refusal names the rule and what to do.
func (c *Config) Resolve(p, want string) (Place, error) {
	abs, err := Canonical(p)
	if err != nil {
		return Place{}, &Refusal{Class: ClassBadPath, Rule: "paths", Reason: err.Error(), Use: "give an absolute path under one of: " + c.rootList()}
	}
	return c.check(p, abs, want)
}

func (c *Config) check(asked, abs, want string) (Place, error) {
	pl, ok := c.place(abs)
	if !ok {
		shown := abs
		if abs != filepath.Clean(asked) {
			shown = fmt.Sprintf("%s (resolves to %s)", asked, abs)
		}
		return Place{}, &Refusal{Class: ClassPathNotAllowed, Rule: "paths", Reason: "path " + shown + " is not under any configured path",
			Use: "use a path under " + c.rootList()}
	}
	if err := c.guards.check(abs, want); err != nil {
		return Place{}, err
	}
	if want == AccessReadWrite && pl.Access != AccessReadWrite {
		return Place{}, &Refusal{Class: ClassReadOnlyPath, Rule: "paths " + pl.Root + " (access = \"r\")",
			Reason: "path " + abs + " is read-only here", Use: "read, list and search work here; writes need a path with access = \"rw\": " + c.rootList()}
	}
	if want == AccessReadWrite {
		if err := runLaterGuard(pl); err != nil { // runlater.go
			return Place{}, err
		}
		if err := c.guards.onPathGuard(pl); err != nil { // onpath.go
			return Place{}, err
		}
	}
	return pl, nil
}

// ResolveEntry is Resolve for an operation on the directory entry itself
// (delete, move, chmod, a new file): the parent directory is canonicalised
// and the last name kept, so a symlink is the link, not its target. A
// symlink whose target leaves the configured rw paths is refused.
func (c *Config) ResolveEntry(p, want string) (Place, error) {
	if !filepath.IsAbs(p) {
		return Place{}, &Refusal{Class: ClassBadPath, Rule: "paths", Reason: fmt.Sprintf("path %q is not absolute", p), Use: "give an absolute path under one of: " + c.rootList()}
	}
	clean := filepath.Clean(p)
	base := filepath.Base(clean)
	last := p[lastSep(p)+1:]
	if clean == rootOf(clean) || base == "." || base == ".." || last == ".." || last == "." {
		return Place{}, &Refusal{Class: ClassBadPath, Rule: "paths", Reason: fmt.Sprintf("path %q does not name a file", p), Use: "name the file or directory itself"}
	}
	// The parent as the kernel would reach it: canonicalise p's text
	// without its last name.
	parentText := p[:lastSep(strings.TrimRightFunc(p, func(r rune) bool { return r < 128 && os.IsPathSeparator(uint8(r)) }))+1]
	parent, err := Canonical(parentText)
	if err != nil {
		return Place{}, &Refusal{Class: ClassBadPath, Rule: "paths", Reason: err.Error(), Use: "give an absolute path under one of: " + c.rootList()}
	}
	abs := filepath.Join(parent, base)
	pl, err := c.check(p, abs, want)
	if err != nil {
		return pl, err
	}
	if pl.Rel == "." {
		return Place{}, &Refusal{Class: ClassPathNotAllowed, Rule: "paths", Reason: "path " + abs + " is a configured root itself", Use: "work on what is inside it"}
	}
	if fi, err := os.Lstat(abs); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		target, err := Canonical(abs)
		if err != nil {
			return Place{}, &Refusal{Class: ClassPathNotAllowed, Rule: "paths", Reason: "symlink " + abs + ": " + err.Error(), Use: "work on the target's own path"}
		}
		if _, err := c.check(abs, target, want); err != nil {
			return Place{}, &Refusal{Class: ClassPathNotAllowed, Rule: "paths", Reason: "symlink " + abs + " points to " + target + ", outside the paths this op may touch", Use: "use paths under " + c.rootList()}
		}
	}
	return pl, nil
}

func (c *Config) rootList() string {
	var out []string
	for _, p := range c.Paths {
		out = append(out, p.real+" ("+p.Access+")")
	}
	return strings.Join(out, ", ")
}

package gitdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Scan is what ScanTree found under a place.
type Scan struct {
	Dirs     []string // git dirs (resolved), the project's own excluded
	Pointers []string // .git files and links under the place
	Watch    []string // the other directories walked (the watcher's)
	// Unlisted are the directories under the place that could not be
	// listed (chmod 311): git finds a .git in one by name with search
	// permission alone, so what they hold is unknown, not absent.
	Unlisted []string
	// Seen are the paths of every git dir and pointer present at the
	// start, the project's own included: what the watcher and the final
	// sweep take as the person's.
	Seen map[string]bool
}

// IsGitDirByContent says whether a directory holding names holds what makes git take it for a
// git dir: HEAD with objects/ and refs/, or HEAD with a commondir file.
func IsGitDirByContent(names map[string]os.FileMode) bool {
	head, ok := names["HEAD"]
	if !ok || head.IsDir() {
		return false
	}
	if m, ok := names["commondir"]; ok && !m.IsDir() {
		return true
	}
	o, okO := names["objects"]
	r, okR := names["refs"]
	return okO && okR && enterable(o) && enterable(r)
}

// enterable says whether git may take an entry of this mode for one of a
// git dir's directories: git only checks it can enter it, which a link
// (to a directory, followed) and an executable file pass too. Only a
// plain file without an execute bit is out.
func enterable(m os.FileMode) bool {
	return !m.IsRegular() || m.Perm()&0o111 != 0
}

// ScanTree walks root for what git would take for a repository: a
// directory or file named .git (in any spelling a file system takes for it: IsDotGit) at any depth, a directory that
// is a git dir by its content however it is named, and what each .git file
// or link and each commondir points to. own is the place's own git dir
// ("" when it is no repository), left out of Dirs; a top-level entry named
// skipTop is not walked (Sentinel's state); more than max git dirs is an
// error.
func ScanTree(root, own, skipTop string, max int, opts ...ScanOption) (Scan, error) {
	var o scanOptions
	for _, f := range opts {
		f(&o)
	}
	s := Scan{Seen: map[string]bool{}}
	ownReal := ""
	if own != "" {
		ownReal = resolvedPath(own)
		s.Seen[ownReal] = true
	}
	addDir := func(d string) {
		d = resolvedPath(d)
		if d == ownReal || s.Seen[d] {
			return
		}
		s.Seen[d] = true
		s.Dirs = append(s.Dirs, d)
	}
	var walk func(dir string) error
	walk = func(dir string) error {
		entries, err := readDir(dir)
		if err != nil && dir != root && o.open != nil && errors.Is(err, fs.ErrPermission) && !o.open(dir) {
			entries, err = o.listOpened(root, dir)
		}
		if err != nil {
			if dir == root {
				return err
			}
			if !errors.Is(err, fs.ErrNotExist) {
				s.Unlisted = append(s.Unlisted, dir)
			}
			return nil
		}
		names := make(map[string]os.FileMode, len(entries))
		for _, e := range entries {
			names[e.Name()] = e.Type()
		}
		if dir != root && IsGitDirByContent(names) {
			addDir(dir)
			return nil
		}
		s.Watch = append(s.Watch, dir)
		for _, e := range entries {
			p := filepath.Join(dir, e.Name())
			if IsDotGit(e.Name()) {
				if e.IsDir() {
					addDir(p)
					continue
				}
				s.Pointers = append(s.Pointers, p)
				s.Seen[p] = true
				if t, ok := FileTarget(p); ok {
					addDir(t)
				} else if e.Type()&os.ModeSymlink != 0 {
					if t, err := filepath.EvalSymlinks(p); err == nil {
						addDir(t)
					}
				}
				continue
			}
			if dir == root && skipTop != "" && e.Name() == skipTop {
				continue // Sentinel's state: read-only inside, other runs' copies hidden
			}
			if e.IsDir() && p != own && p != ownReal {
				if err := walk(p); err != nil {
					return err
				}
			}
			if len(s.Dirs) > max {
				return fmt.Errorf("more than %d git repositories under %s; start in a narrower folder", max, root)
			}
		}
		return nil
	}
	if err := walk(root); err != nil {
		return s, err
	}
	// A commondir leads to another git dir, which is the person's too.
	for i := 0; i < len(s.Dirs); i++ {
		if c := Common(s.Dirs[i]); c != s.Dirs[i] {
			addDir(c)
		}
	}
	return s, nil
}

// readDir is os.ReadDir; tests make it refuse as an unlistable directory
// does for a user without CAP_DAC_READ_SEARCH.
var readDir = os.ReadDir

// resolvedPath is p with symlinks resolved where it exists, cleaned.
func resolvedPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

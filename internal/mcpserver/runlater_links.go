package mcpserver

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"

	"github.com/sentinelhq/sentinel/internal/filestamp"
)

// A file has as many names as hard links, and a read-only mount holds
// only the name it is bound at: a second name under an rw root, made by
// an earlier session's command (link(2) across the held mount fails with
// EXDEV, so not by this one's), writes the same file. So before the
// sandbox starts, every file held read-only (a run-later file, a git
// hook or config, a nested repository, or one in a held directory) with
// more than one name is looked for under the rw roots by its identity,
// and each other name found is held read-only too. An object store is
// not looked into: a clone from a local path hard-links its objects, and
// an object is checked by its name (gitobjects.go). The
// look runs only when such a file exists, and is bounded: past
// maxLinkWalk entries the sandbox does not start (the other names could
// not all be found), with a one-line fix.

// maxLinkWalk bounds the entries looked at for other names.
const maxLinkWalk = 500000

// heldLinks are the other names, under roots, of the files held at the
// paths mounts (what the sandbox binds read-only); hidden is not looked
// into.
func heldLinks(mounts, roots, hidden []string) ([]string, error) {
	want := map[filestamp.ID]string{}
	budget := maxLinkWalk
	for _, m := range mounts {
		err := filepath.WalkDir(m, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() && d.Name() == "objects" && present(filepath.Join(filepath.Dir(p), "HEAD")) {
				return filepath.SkipDir // a git object store
			}
			if budget--; budget < 0 {
				return fmt.Errorf("more than %d entries in the held %s; give a narrower rw path", maxLinkWalk, m)
			}
			if id, ok := multiLinked(d); ok {
				want[id] = p
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if len(want) == 0 {
		return nil, nil
	}
	var out []string
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() && slices.ContainsFunc(hidden, func(h string) bool { return within(p, h) }) {
				return filepath.SkipDir
			}
			if budget--; budget < 0 {
				return fmt.Errorf("%s has more than %d entries, and a file that runs code later (%s) has other names that could not all be found; give a narrower rw path", root, maxLinkWalk, anyOf(want))
			}
			id, ok := multiLinked(d)
			if !ok {
				return nil
			}
			if held, ok := want[id]; ok && p != held && !slices.ContainsFunc(mounts, func(m string) bool { return within(p, m) }) {
				out = append(out, p)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("hold the other names of the files that run code later: %w", err)
		}
	}
	return out, nil
}

// multiLinked is a regular file's identity when it has more than one name.
func multiLinked(d fs.DirEntry) (filestamp.ID, bool) {
	if !d.Type().IsRegular() {
		return filestamp.ID{}, false
	}
	fi, err := d.Info()
	if err != nil {
		return filestamp.ID{}, false
	}
	s, ok := filestamp.Of(fi)
	if !ok || s.Nlink < 2 {
		return filestamp.ID{}, false
	}
	return filestamp.ID{Dev: s.Dev, Ino: s.Ino}, true
}

func anyOf(m map[filestamp.ID]string) string {
	for _, p := range m {
		return p
	}
	return ""
}

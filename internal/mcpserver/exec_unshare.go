package mcpserver

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/internal/filestamp"
	"github.com/sentinelhq/sentinel/internal/runlater"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// A file under an rw path may share its data with a name outside every
// rw path (a hard link: pnpm's store behind node_modules, uv's cache
// behind .venv, a `cp -al` backup). An exec command may write the rw
// paths, and its write through such a name (`>>`, an editor writing in
// place) changes the file outside too, which no [[paths]] entry allows.
// So before each exec command (the first records the rw paths) every such
// file becomes a file of its own, as exec in place does
// (runner/inplace_hardlinks.go): the same content, mode, owner and times.
// This hangs on no checkpoint, so a point's own limits cannot switch it
// off. The walk stats every file (no content is read); git dirs, held
// read-only, and Sentinel's hidden state are left out.

// sharedOutsideRoots walks roots and is, per root, the files (relative,
// slash-separated) whose count of names is more than the names they have
// under roots. skip are paths not walked. On Linux it is linkWalk
// (exec_unshare_linux.go), the same answer for a fraction of the work.
var sharedOutsideRoots = sharedOutsideRootsWalk

// sharedOutsideRootsWalk is sharedOutsideRoots by filepath.WalkDir and
// an lstat of each file by its whole path.
func sharedOutsideRootsWalk(roots, skip []string) (map[string][]string, error) {
	type key struct{ dev, ino uint64 }
	type file struct {
		root, rel string
		k         key
		nlink     uint64
	}
	seen := map[string]bool{}
	inside := map[key]uint64{}
	var files []file
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if p == root {
					return err
				}
				return nil // an unlistable folder: the sandbox decides what a command reaches in it
			}
			if d.IsDir() && p != root && (d.Name() == ".git" || slices.Contains(skip, p)) {
				return filepath.SkipDir
			}
			if !d.Type().IsRegular() || seen[p] {
				return nil
			}
			seen[p] = true
			fi, err := d.Info()
			if err != nil {
				return nil
			}
			st, ok := filestamp.Of(fi)
			if !ok || st.Nlink < 2 {
				return nil
			}
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			k := key{st.Dev, st.Ino}
			inside[k]++
			files = append(files, file{root, filepath.ToSlash(rel), k, st.Nlink})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	out := map[string][]string{}
	for _, f := range files {
		if f.nlink > inside[f.k] {
			out[f.root] = append(out[f.root], f.rel)
		}
	}
	return out, nil
}

// unshareOutside makes each file under the rw paths that shares its data
// with a name outside them a file of its own, and says so in a line per
// rw path; a file it cannot copy refuses the command, in one line.
func (r *runner) unshareOutside() ([]string, error) {
	by, err := sharedOutsideRoots(r.roots, r.hidden)
	if err != nil {
		return nil, fmt.Errorf("not run: could not look for files hard-linked outside the rw paths (%w)", err)
	}
	var said []string
	for _, root := range r.roots {
		if len(by[root]) == 0 {
			continue
		}
		done, err := checkpoint.Unshare(root, by[root])
		if len(done) > 0 {
			eg := done
			if len(eg) > 5 {
				eg = append(eg[:5:5], fmt.Sprintf("and %d more", len(done)-5))
			}
			said = append(said, fmt.Sprintf("%d file(s) under %s shared their data with a file outside every rw path (hard links: a package cache's store, a backup made with cp -al); each is now a file of its own, so commands' writes stay in the rw path: %s", len(done), root, strings.Join(eg, ", ")))
		}
		if err != nil {
			return said, fmt.Errorf("not run: %w; a command's write to it would change that other file too: make it a file of its own (cp -p FILE FILE.own && mv FILE.own FILE)", err)
		}
	}
	return said, nil
}

// newLibraries are a line for each file under the rw paths named as a
// system library (libc.so.6, libz.so.1) that the command made or changed
// (its change time is not before began, less the clock's grain):
// runlater.LibraryWhy.
func (r *runner) newLibraries(began time.Time) []string {
	if r.tmp != "" {
		return nil
	}
	var out []string
	for _, p := range runlater.NewLibraries(r.roots, began.Add(-lookRacy), func(d string) bool { return slices.Contains(r.hidden, d) }) {
		out = append(out, "the command made or changed "+textsafe.Line(p)+": "+runlater.LibraryWhy(filepath.Base(p))+"; the person must look at it before running anything in this folder")
	}
	return out
}

package mcpserver

import (
	"path/filepath"
	"slices"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The walk before every exec command (sharedOutsideRoots) must stat every
// file: a name made outside the rw paths for a file inside them (the
// person's `cp -al app app.bak` between two commands) changes nothing in
// the rw path's directories, only the file's own link count, so no
// directory stamp can say which files to look at again. What it can save
// is everything around the stat: filepath.WalkDir sorts every listing,
// makes a DirEntry, a joined path and a FileInfo per file, and lstat
// resolves the whole path from / each time (about six allocations per
// file, and a path walk in the kernel). linkWalk lists each directory once
// into a reused buffer and stats each entry relative to its directory's
// descriptor (fstatat): one system call per file, a path joined only for
// a directory or a file with more than one name.

func init() { sharedOutsideRoots = linkWalk }

// linkWalk is sharedOutsideRoots by getdents and fstatat.
func linkWalk(roots, skip []string) (map[string][]string, error) {
	w := &linkWalker{skip: skip, inside: map[linkKey]uint64{}, buf: make([]byte, 64<<10)}
	for i, root := range roots {
		// A root inside one walked before it was walked with it (its
		// files counted once, under the first), as WalkDir's seen did.
		if slices.ContainsFunc(roots[:i], func(o string) bool { return within(root, o) }) {
			continue
		}
		w.root, w.others = root, nil
		for _, o := range roots[:i] {
			if within(o, root) {
				w.others = append(w.others, o) // walked on its own, before
			}
		}
		if err := w.dir(unix.AT_FDCWD, root, root, ""); err != nil {
			return nil, err
		}
	}
	out := map[string][]string{}
	for _, f := range w.files {
		if f.nlink > w.inside[f.k] {
			out[f.root] = append(out[f.root], f.rel)
		}
	}
	for _, rels := range out {
		slices.Sort(rels)
	}
	return out, nil
}

type linkKey struct{ dev, ino uint64 }

type linkFile struct {
	root, rel string
	k         linkKey
	nlink     uint64
}

type linkWalker struct {
	root   string
	skip   []string
	others []string // roots inside root walked before it, on their own
	inside map[linkKey]uint64
	files  []linkFile
	buf    []byte
	st     unix.Stat_t
}

// dir walks the directory name of parent (its whole path p, relative rel):
// an unlistable one is left as it is, but for the root.
func (w *linkWalker) dir(parent int, name, p, rel string) error {
	flags := unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC
	if p != w.root {
		flags |= unix.O_NOFOLLOW // a link in the place is not walked through
	}
	fd, err := unix.Openat(parent, name, flags, 0)
	if err != nil {
		if p == w.root {
			return &pathError{"open", p, err}
		}
		return nil // an unlistable folder: the sandbox decides what a command reaches in it
	}
	defer unix.Close(fd)
	var subdirs []string
	for {
		n, err := unix.Getdents(fd, w.buf)
		if err != nil {
			if p == w.root {
				return &pathError{"readdirent", p, err}
			}
			return nil
		}
		if n <= 0 {
			break
		}
		for off := 0; off < n; {
			// struct linux_dirent64: ino 8, off 8, reclen 2, type 1, name.
			reclen := int(*(*uint16)(unsafe.Pointer(&w.buf[off+16])))
			typ := w.buf[off+18]
			nameb := w.buf[off+19 : off+reclen]
			if i := slices.Index(nameb, 0); i >= 0 {
				nameb = nameb[:i]
			}
			off += reclen
			if len(nameb) == 0 || string(nameb) == "." || string(nameb) == ".." {
				continue
			}
			switch typ {
			case unix.DT_DIR:
				subdirs = append(subdirs, string(nameb))
				continue
			case unix.DT_REG, unix.DT_UNKNOWN:
			default:
				continue // a link, a device, a socket: not a file a write goes through
			}
			ename := unsafe.String(&nameb[0], len(nameb))
			if err := unix.Fstatat(fd, ename, &w.st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
				continue
			}
			switch w.st.Mode & unix.S_IFMT {
			case unix.S_IFDIR:
				subdirs = append(subdirs, string(nameb))
				continue
			case unix.S_IFREG:
			default:
				continue
			}
			if uint64(w.st.Nlink) < 2 {
				continue
			}
			k := linkKey{uint64(w.st.Dev), uint64(w.st.Ino)}
			w.inside[k]++
			frel := string(nameb)
			if rel != "" {
				frel = rel + "/" + frel
			}
			w.files = append(w.files, linkFile{w.root, frel, k, uint64(w.st.Nlink)})
		}
	}
	for _, d := range subdirs {
		sp := filepath.Join(p, d)
		if d == ".git" || slices.Contains(w.skip, sp) || slices.Contains(w.others, sp) {
			continue
		}
		srel := d
		if rel != "" {
			srel = rel + "/" + d
		}
		if err := w.dir(fd, d, sp, srel); err != nil {
			return err
		}
	}
	return nil
}

// pathError is the root's error, as os names one.
type pathError struct {
	op, path string
	err      error
}

func (e *pathError) Error() string { return e.op + " " + e.path + ": " + e.err.Error() }
func (e *pathError) Unwrap() error { return e.err }

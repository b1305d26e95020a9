package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// standardBinDirs are searched for a denied program name besides PATH.
var standardBinDirs = []string{"/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"}

// resolveDenied finds, outside the sandbox, the files the profile's
// denied_executables name: an absolute path is that file (symlinks
// followed); a program name is every file of that name in PATH (Sentinel's
// and the profile's), the standard bin directories and the profile's
// readable directories. It refuses what it cannot enforce: a denied file in
// a place the coder can write (it could replace it), or one that is the
// sandbox's own helper.
func (s *Sandbox) resolveDenied() ([]deniedFile, error) {
	if len(s.p.DeniedExecutables) == 0 {
		return nil, nil
	}
	if s.mode == ModeOff {
		return nil, fmt.Errorf("sandbox: denied_executables cannot be enforced with --sandbox off; run sandboxed or empty [service] denied_executables in your config")
	}
	var dirs []string
	addDirs := func(list []string) {
		for _, d := range list {
			if filepath.IsAbs(d) && !slices.Contains(dirs, d) {
				dirs = append(dirs, d)
			}
		}
	}
	addDirs(filepath.SplitList(os.Getenv("PATH")))
	for _, kv := range s.p.Env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			addDirs(filepath.SplitList(v))
		}
	}
	addDirs(standardBinDirs)
	addDirs(s.p.Readable)

	var out []deniedFile
	seen := map[[2]uint64]bool{}
	add := func(entry, path string) error {
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			return nil // nothing there: nothing to run
		}
		var st unix.Stat_t
		if err := unix.Stat(real, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
			return nil
		}
		key := [2]uint64{st.Dev, st.Ino}
		if seen[key] {
			return nil
		}
		seen[key] = true
		df := deniedFile{Entry: entry, Path: real, Dev: st.Dev, Ino: st.Ino, Size: st.Size}
		if f, err := os.Open(real); err == nil {
			df.Sum, _ = hashFile(f)
			f.Close()
		}
		out = append(out, df)
		return nil
	}
	var names []string
	for _, e := range s.p.DeniedExecutables {
		if filepath.IsAbs(e) {
			add(e, filepath.Clean(e))
			continue
		}
		names = append(names, e)
		for _, d := range dirs {
			add(e, filepath.Join(d, e))
		}
	}
	// A multi-call binary that provides a denied name runs it without exec.
	for _, mc := range multiCallNames {
		for _, d := range dirs {
			p := filepath.Join(d, mc)
			if _, err := os.Stat(p); err != nil {
				continue
			}
			if applet := providesApplet(p, names); applet != "" {
				add(applet+" (applet of "+mc+")", p)
			}
		}
	}
	for _, f := range out {
		if h, err := filepath.EvalSymlinks(s.helper); err == nil && h == f.Path {
			return nil, fmt.Errorf("sandbox: denied executable %s is Sentinel itself; remove %q from [service] denied_executables", f.Path, f.Entry)
		}
		// The private mounts (/tmp, /dev) are writable inside whatever
		// the host has there.
		for _, w := range append([]string{s.p.Workspace, s.p.TempDir, "/tmp", "/dev"}, s.p.Writable...) {
			if w != "" && within(f.Path, resolve(w)) {
				return nil, fmt.Errorf("sandbox: denied executable %s (%s) lies in %s, which the coder can write; remove it from there or from [service] denied_executables", f.Path, f.Entry, w)
			}
		}
	}
	return out, nil
}

// providesApplet runs a multi-call binary's applet listing (outside the
// sandbox, briefly) and returns the first denied name it provides, or ""
// when it provides none. A binary whose listing cannot be read is taken to
// provide the first name: denied, not trusted.
func providesApplet(path string, names []string) string {
	if len(names) == 0 {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	args := []string{"--list"}
	if filepath.Base(path) == "toybox" {
		args = nil
	}
	out, err := exec.CommandContext(ctx, path, args...).Output()
	if err != nil {
		return names[0]
	}
	for _, f := range bytes.Fields(out) {
		if n := filepath.Base(string(f)); slices.Contains(names, n) {
			return n
		}
	}
	return ""
}

// llFileAccess are the rights that concern a file's contents: a rule
// granting any of them over a denied file must be carved.
const llFileAccess = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_READ_FILE |
	unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_TRUNCATE

// carveDenied rewrites the rules so no rule's hierarchy holds a denied
// file: a rule over a directory that holds one becomes a listing-only rule
// on that directory plus a rule for each entry, recursing toward the
// denied file and leaving it (and any entry that is the same inode) out.
// Symlinks among the entries get no rule of their own: the kernel checks
// where they lead. Runs inside the sandbox (the helper), on its view.
// Rules are merged by path, so locations named twice (/bin and /usr/bin)
// are listed once.
func carveDenied(rules []llRule, denied []deniedFile) ([]llRule, error) {
	if len(denied) == 0 {
		return rules, nil
	}
	isDenied := func(st *unix.Stat_t) bool {
		for _, d := range denied {
			if d.Dev == st.Dev && d.Ino == st.Ino {
				return true
			}
		}
		return false
	}
	var out []llRule
	index := map[string]int{}
	emit := func(path string, access uint64) {
		if i, ok := index[path]; ok {
			out[i].access |= access
			return
		}
		index[path] = len(out)
		out = append(out, llRule{path, access})
	}
	var split func(dir string, access uint64, under []deniedFile) error
	split = func(dir string, access uint64, under []deniedFile) error {
		emit(dir, access&^llFileAccess)
		ents, err := os.ReadDir(dir)
		if err != nil {
			return fmt.Errorf("list %s to leave denied executables out: %w", dir, err)
		}
		for _, e := range ents {
			child := filepath.Join(dir, e.Name())
			var inner []deniedFile
			exact := false
			for _, d := range under {
				if d.Path == child {
					exact = true
				} else if within(d.Path, child) {
					inner = append(inner, d)
				}
			}
			if exact {
				continue
			}
			if len(inner) > 0 {
				if err := split(child, access, inner); err != nil {
					return err
				}
				continue
			}
			var st unix.Stat_t
			if err := unix.Lstat(child, &st); err != nil {
				continue // gone meanwhile: nothing to grant
			}
			if st.Mode&unix.S_IFMT == unix.S_IFLNK || isDenied(&st) {
				continue
			}
			emit(child, access)
		}
		return nil
	}
	for _, r := range rules {
		if r.access&llFileAccess == 0 {
			emit(r.path, r.access) // listing only: grants no file's contents
			continue
		}
		real, err := filepath.EvalSymlinks(r.path)
		if err != nil {
			continue // missing: the rule would grant nothing
		}
		var st unix.Stat_t
		if err := unix.Stat(real, &st); err != nil {
			continue
		}
		if isDenied(&st) {
			continue // the rule names a denied file itself
		}
		var under []deniedFile
		for _, d := range denied {
			if within(d.Path, real) {
				under = append(under, d)
			}
		}
		if len(under) == 0 || st.Mode&unix.S_IFMT != unix.S_IFDIR {
			emit(real, r.access)
			continue
		}
		if r.access&unix.LANDLOCK_ACCESS_FS_WRITE_FILE != 0 {
			return nil, fmt.Errorf("denied executable %s lies in the writable %s", under[0].Path, r.path)
		}
		if err := split(real, r.access, under); err != nil {
			return nil, err
		}
	}
	return out, nil
}

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

	"github.com/sentinelhq/sentinel/internal/hostbin"
	"github.com/sentinelhq/sentinel/sandbox/inside"
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
			df.Sum, _ = inside.HashFile(f)
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
	// It runs on the host: a copy that is not the system's own (one in
	// the project, on a PATH entry anyone can write) is not run but taken
	// to provide the first name, denied rather than trusted.
	if hostbin.Check(path) != nil {
		return names[0]
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

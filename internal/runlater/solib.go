package runlater

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/internal/filestamp"
	"github.com/sentinelhq/sentinel/internal/hostbin"
)

// A shared library named as a system one (libc.so.6, libz.so.1,
// libpthread.so.0) in the place runs code later, on the person's machine,
// when the person's LD_LIBRARY_PATH names the working directory (an empty
// entry: `export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/opt/lib` with it unset):
// the next `ls` there loads it. Sentinel's own programs are kept from it
// (hostbin.KeepLoaderOutOfTheWorkingDir); the person's are not. Only a
// system library's name is flagged: a build's own libfoo.so is no one's
// dependency until something links it.

// isLibName says whether name is a shared library's: *.so, *.so.*,
// *.dylib, with something before the suffix.
func isLibName(name string) bool {
	for _, suf := range []string{".so", ".dylib"} {
		if len(name) > len(suf) && strings.HasSuffix(name, suf) {
			return true
		}
	}
	return strings.Index(name, ".so.") > 0
}

// systemLibDirs are where a system library is looked for by name.
var systemLibDirs = func() []string {
	dirs := []string{"/lib", "/lib64", "/lib32", "/usr/lib", "/usr/lib64", "/usr/lib32", "/usr/local/lib"}
	for _, g := range []string{"/lib/*-linux-gnu*", "/usr/lib/*-linux-gnu*", "/lib/*-linux-musl*", "/usr/lib/*-linux-musl*"} {
		m, _ := filepath.Glob(g)
		dirs = append(dirs, m...)
	}
	return dirs
}

var ldCache = sync.OnceValue(func() []byte {
	b, _ := os.ReadFile("/etc/ld.so.cache")
	return b
})

// IsSystemLibraryName says whether name (a file's base name) is a shared
// library's (*.so, *.so.*, *.dylib) that a system library has: a file of
// that name under /lib, /usr/lib (their multiarch and 64/32 folders) or
// /usr/local/lib, or a name in the loader's cache.
func IsSystemLibraryName(name string) bool {
	if !isLibName(name) {
		return false
	}
	for _, d := range systemLibDirs() {
		if _, err := os.Lstat(filepath.Join(d, name)); err == nil {
			return true
		}
	}
	c := ldCache()
	return len(c) > 0 && (bytes.Contains(c, []byte("\x00"+name+"\x00")) || bytes.Contains(c, []byte("/"+name+"\x00")))
}

// LibraryWhy is the flag of a new or rewritten file named name: "" unless
// it is a system library's name (IsSystemLibraryName); it says whether the
// person's LD_LIBRARY_PATH names the working directory now.
func LibraryWhy(name string) string {
	if !IsSystemLibraryName(name) {
		return ""
	}
	why := "a system library's name (" + name + "): runs code later when LD_LIBRARY_PATH holds the current directory (an empty or relative entry), in every program started here"
	if hostbin.LoaderNamesWorkingDir("LD_LIBRARY_PATH") {
		return why + "; yours does now: your next command in this folder loads it"
	}
	return why + "; yours does not now"
}

// NewLibraries are the files under roots (git dirs and what skip names
// left out) named as a system library (IsSystemLibraryName) whose change
// time is not before since: made or changed since then. Only names are
// read for the rest.
func NewLibraries(roots []string, since time.Time, skip func(string) bool) []string {
	var out []string
	for _, root := range roots {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() && p != root && (isGitDir(p, d.Name()) || skip != nil && skip(p)) {
				return filepath.SkipDir
			}
			if d.IsDir() || !isLibName(d.Name()) {
				return nil
			}
			fi, err := d.Info()
			if err != nil {
				return nil
			}
			st, ok := filestamp.Of(fi)
			if !ok || time.Unix(st.CtimeSec, st.CtimeNsec).Before(since) || !IsSystemLibraryName(d.Name()) {
				return nil
			}
			out = append(out, p)
			return nil
		})
	}
	return out
}

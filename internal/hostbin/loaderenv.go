package hostbin

import (
	"os"
	"strings"
	"sync"
)

var (
	droppedMu sync.Mutex
	dropped   map[string]string // the variables KeepLoaderOutOfTheWorkingDir changed, as the person had them
)

// LoaderNamesWorkingDir says whether the person's variable name (one of
// loaderLists, as this process had it before KeepLoaderOutOfTheWorkingDir
// cleaned it, else as it is) has an entry that names the working
// directory: what the person's own programs started in the place load
// from.
func LoaderNamesWorkingDir(name string) bool {
	droppedMu.Lock()
	v, ok := dropped[name]
	droppedMu.Unlock()
	if !ok {
		v, ok = os.LookupEnv(name)
	}
	seps := loaderLists[name]
	if !ok || seps == "" || v == "" { // set and empty: glibc's loader ignores it
		return false
	}
	for _, e := range strings.FieldsFunc(v, func(r rune) bool { return strings.ContainsRune(seps, r) }) {
		if !strings.HasPrefix(e, "/") {
			return true
		}
	}
	// FieldsFunc drops empty entries: a leading, trailing or doubled separator is one.
	for _, sep := range seps {
		s := string(sep)
		if strings.HasPrefix(v, s) || strings.HasSuffix(v, s) || strings.Contains(v, s+s) {
			return true
		}
	}
	return false
}

// The dynamic loader takes code from where some variables of the person's
// environment say: LD_LIBRARY_PATH, LD_PRELOAD, LD_AUDIT and GCONV_PATH
// (glibc's iconv modules), DYLD_* on macOS. An entry that is empty or
// relative names the working directory of each program started, and an
// empty one is common by accident (`export
// LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/usr/local/cuda/lib64` with it unset
// gives ":/usr/local/cuda/lib64"). Sentinel starts git on the host in the
// place, as the person, during and at the end of a run; with such an entry
// that git loaded the libz.so.1 the coder had just written there (its
// constructor ran five times at the end of `sentinel exec`). So Sentinel
// drops those entries from its own environment before it starts anything,
// and every program it starts inherits the cleaned one.

// loaderLists are the variables whose entries the loader searches or
// loads, with the separators it splits them by.
var loaderLists = map[string]string{
	"LD_LIBRARY_PATH":              ":;",
	"LD_PRELOAD":                   ": ",
	"LD_AUDIT":                     ":",
	"GCONV_PATH":                   ":",
	"DYLD_LIBRARY_PATH":            ":",
	"DYLD_FALLBACK_LIBRARY_PATH":   ":",
	"DYLD_FRAMEWORK_PATH":          ":",
	"DYLD_FALLBACK_FRAMEWORK_PATH": ":",
	"DYLD_INSERT_LIBRARIES":        ":",
}

// KeepLoaderOutOfTheWorkingDir removes from this process's environment
// every loader entry (loaderLists) that names a directory or library
// relative to the working directory: an empty entry, or one not starting
// with '/' (a bare library name in LD_PRELOAD or LD_AUDIT is looked up in
// the library path, which is cleaned too, and is kept). A variable left
// with no entry is unset. It returns the variables it changed.
func KeepLoaderOutOfTheWorkingDir() []string {
	var changed []string
	for name, seps := range loaderLists {
		v, ok := os.LookupEnv(name)
		if !ok {
			continue
		}
		kept := keepAbsolute(name, v, seps)
		if kept == v {
			continue
		}
		changed = append(changed, name)
		droppedMu.Lock()
		if dropped == nil {
			dropped = map[string]string{}
		}
		dropped[name] = v
		droppedMu.Unlock()
		if kept == "" {
			os.Unsetenv(name)
		} else {
			os.Setenv(name, kept)
		}
	}
	return changed
}

// keepAbsolute is v with each of its entries (split at any of seps) that
// is empty or relative left out, joined by the first separator.
func keepAbsolute(name, v, seps string) string {
	bareNameOK := name == "LD_PRELOAD" || name == "LD_AUDIT"
	var kept []string
	for _, e := range strings.FieldsFunc(v, func(r rune) bool { return strings.ContainsRune(seps, r) }) {
		if strings.HasPrefix(e, "/") || bareNameOK && !strings.Contains(e, "/") {
			kept = append(kept, e)
		}
	}
	return strings.Join(kept, seps[:1])
}

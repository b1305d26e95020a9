package hostbin

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// The person's own programs that Sentinel starts on the host — the Go
// toolchain that builds the verification seed, a supervisor's CLI (claude,
// codex), the desktop notifier — are not system programs: they live where
// the person installed them (/usr/local/go/bin, ~/go/bin, ~/.local/bin, an
// npm prefix), so Find cannot have them. They come from the PATH Sentinel
// was started with, read once when the process starts, never from PATH as
// it is later, and never from a directory a coder can write: a relative
// entry (it means the project Sentinel runs in), or one under a place an
// in-place run gives the coder (the project, its writable roots: Avoid).
// A program found there is also held to Check (owned by root or the
// person, writable by no one else). Each name is resolved once and kept;
// PinPerson resolves the known names before a coder starts, so a program
// planted later, anywhere, is never the one that runs.

// startPATH is PATH as the process started, before any run could act.
var startPATH = os.Getenv("PATH")

// PersonPrograms are the person's programs Sentinel may start on the host.
var PersonPrograms = []string{"go", "claude", "codex", "notify-send", "gdbus"}

type pin struct {
	path string
	err  error
}

var (
	personMu sync.Mutex
	pins     = map[string]pin{}
	avoided  []string // resolved absolute dirs no program is taken from
)

// PinPerson adds dirs (the place an in-place run acts on and its writable
// roots) to the directories no program is taken from, and resolves names
// and every name resolved before now, so what is kept was found before
// the coder could act.
func PinPerson(dirs []string, names ...string) {
	personMu.Lock()
	defer personMu.Unlock()
	for _, d := range dirs {
		if d == "" {
			continue
		}
		if real, err := filepath.EvalSymlinks(d); err == nil {
			d = real
		}
		if abs, err := filepath.Abs(d); err == nil {
			avoided = append(avoided, filepath.Clean(abs))
		}
	}
	for n := range pins {
		names = append(names, n)
	}
	for _, n := range names {
		pins[n] = resolvePerson(n)
	}
}

// Person is the absolute path of the person's program name, as PinPerson
// resolved it (or now, once, for a name never pinned).
func Person(name string) (string, error) {
	if name == "" || strings.ContainsRune(name, '/') || strings.ContainsRune(name, filepath.Separator) {
		return "", fmt.Errorf("hostbin: %q is not a program name", name)
	}
	personMu.Lock()
	defer personMu.Unlock()
	p, ok := pins[name]
	if !ok {
		p = resolvePerson(name)
		pins[name] = p
	}
	return p.path, p.err
}

// PersonPATH is the start PATH without the entries Person never takes a
// program from: the PATH a program Sentinel starts on the host is given.
func PersonPATH() string {
	personMu.Lock()
	defer personMu.Unlock()
	return strings.Join(personDirs(), string(os.PathListSeparator))
}

// SetPersonPATHForTest starts over as if the process had started with
// PATH path (no pins, nothing avoided) until the returned func is called.
func SetPersonPATHForTest(path string) (restore func()) {
	personMu.Lock()
	defer personMu.Unlock()
	prevPATH, prevPins, prevAvoided := startPATH, pins, avoided
	startPATH, pins, avoided = path, map[string]pin{}, nil
	return func() {
		personMu.Lock()
		defer personMu.Unlock()
		startPATH, pins, avoided = prevPATH, prevPins, prevAvoided
	}
}

// personDirs are the start PATH's usable entries (personMu held).
func personDirs() []string {
	var out []string
	for _, d := range filepath.SplitList(startPATH) {
		if !filepath.IsAbs(d) {
			continue // "", ".", "bin": the directory Sentinel happens to be in
		}
		d = filepath.Clean(d)
		if underAvoided(d) {
			continue
		}
		if real, err := filepath.EvalSymlinks(d); err == nil && underAvoided(real) {
			continue
		}
		out = append(out, d)
	}
	return out
}

func underAvoided(d string) bool {
	for _, a := range avoided {
		if d == a || strings.HasPrefix(d, a+string(filepath.Separator)) || a == string(filepath.Separator) {
			return true
		}
	}
	return false
}

// errNotOnPath is resolvePerson's error when no usable copy exists.
var errNotOnPath = errors.New("not found on PATH")

// resolvePerson finds name on the usable start PATH (personMu held).
func resolvePerson(name string) pin {
	if p, ok := fallback(name); ok {
		return pin{path: p} // no system bin dirs, no sandbox (Windows)
	}
	var refused []string
	for _, d := range personDirs() {
		p := filepath.Join(d, name)
		st, err := os.Stat(p)
		if err != nil || !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0 {
			continue
		}
		if real, err := filepath.EvalSymlinks(p); err == nil && underAvoided(real) {
			refused = append(refused, p+" leads into a place a coder can write")
			continue
		}
		if err := Check(p); err != nil {
			refused = append(refused, err.Error())
			continue
		}
		return pin{path: p}
	}
	msg := fmt.Sprintf("%s %v (PATH as Sentinel started, without relative entries and the places a coder can write)", name, errNotOnPath)
	if len(refused) > 0 {
		msg += "; refused: " + strings.Join(refused, "; ")
	}
	return pin{err: fmt.Errorf("%s: %w", msg, ErrNotFound)}
}

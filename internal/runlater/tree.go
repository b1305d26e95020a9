package runlater

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/sentinelhq/sentinel/internal/filestamp"
	"github.com/sentinelhq/sentinel/policy"
)

// Tree finds what Find finds, again and again, in time proportional to
// what changed: it remembers each directory it read by its identity and
// change time (which no program sets back: an entry made, removed or
// renamed in it moves it) and reads again only those that moved, so that
// after a command that changed nothing it costs one lstat a directory
// instead of a read of every directory and a match of every path. A
// directory whose change time is too close to the read (a coarse clock
// could give a later change the same time) or that carries no change time
// (Windows) is read every time.
//
// Tree also names the installed-environment directories it passes —
// node_modules/.bin, a virtual environment's bin or Scripts — whose
// programs run when the person runs a script or activates it: Envs.
type Tree struct {
	root string
	skip func(string) bool
	dirs map[string]*treeDir
	// Reads is how many directories the last Refresh read (for tests and
	// benchmarks).
	Reads int
	now   func() time.Time // a test's clock
}

// treeDir is one directory as last read.
type treeDir struct {
	stamp string   // "" to read it again next time
	subs  []string // the directories under it to look into
	found []string // what runs later directly in it
}

// racy is how close to a read a change time must not be for the read to
// be trusted next time.
const racy = 2 * time.Second

// NewTree is a Tree of root, passing over what skip names (as Find).
func NewTree(root string, skip func(string) bool) *Tree {
	return &Tree{root: root, skip: skip, dirs: map[string]*treeDir{}, now: time.Now}
}

// Refresh is Find's answer now, and the installed-environment directories
// under root.
func (t *Tree) Refresh() (found, envs []string, err error) {
	t.Reads = 0
	if _, err := os.Lstat(t.root); err != nil {
		return nil, nil, err
	}
	seen := map[string]bool{}
	now := t.now()
	stack := []string{t.root}
	for len(stack) > 0 {
		d := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		seen[d] = true
		td, err := t.look(d, now)
		if err != nil {
			if d == t.root {
				return nil, nil, err
			}
			continue // an unreadable directory below root is passed over (as Find)
		}
		found = append(found, td.found...)
		if len(found) > Max {
			return nil, nil, fmt.Errorf("more than %d files that run code later under %s (the last: %s); give a narrower rw path", Max, t.root, found[len(found)-1])
		}
		if isEnvDir(d) { // looked at every time: a pyvenv.cfg made beside it does not move it
			envs = append(envs, d)
		}
		stack = append(stack, td.subs...)
	}
	for d := range t.dirs {
		if !seen[d] {
			delete(t.dirs, d)
		}
	}
	found = withEnvrcSources(t.root, found)
	if len(found) > Max {
		return nil, nil, fmt.Errorf("more than %d files that run code later under %s (the last: %s); give a narrower rw path", Max, t.root, found[len(found)-1])
	}
	slices.Sort(found)
	return found, envs, nil
}

// look is d as it is now: as last read when its stamp has not moved.
func (t *Tree) look(d string, now time.Time) (*treeDir, error) {
	fi, err := os.Lstat(d)
	if err != nil || !fi.IsDir() {
		delete(t.dirs, d)
		return nil, fmt.Errorf("%s is no longer a directory", d)
	}
	st := dirStamp(fi, now)
	if old, ok := t.dirs[d]; ok && st != "" && old.stamp == st {
		return old, nil
	}
	t.Reads++
	entries, err := os.ReadDir(d)
	if err != nil {
		delete(t.dirs, d)
		return nil, err
	}
	td := &treeDir{stamp: st}
	for _, e := range entries {
		p := filepath.Join(d, e.Name())
		if e.IsDir() && (isGitDir(p, e.Name()) || t.skip != nil && t.skip(p)) {
			continue
		}
		rel, err := filepath.Rel(t.root, p)
		if err != nil {
			continue
		}
		if le, ok := policy.RunsLater(filepath.ToSlash(rel)); ok && le.Class == policy.RunsUnasked {
			td.found = append(td.found, p) // a matching directory is not looked into
			continue
		}
		if e.IsDir() {
			td.subs = append(td.subs, p)
		}
	}
	t.dirs[d] = td
	return td, nil
}

// dirStamp is what tells a directory read from one changed since: its
// identity and change time; "" when the system gives no change time or
// it is too close to now to trust.
func dirStamp(fi fs.FileInfo, now time.Time) string {
	s, ok := filestamp.Of(fi)
	if !ok {
		return ""
	}
	if now.Sub(time.Unix(s.CtimeSec, s.CtimeNsec)) < racy {
		return ""
	}
	return fmt.Sprintf("%d %d %d.%09d %d", s.Dev, s.Ino, s.CtimeSec, s.CtimeNsec, fi.ModTime().UnixNano())
}

// isEnvDir says whether d holds an installed environment's programs (EnvWhy).
func isEnvDir(d string) bool { return EnvWhy(d) != "" }

// envKinds are the directories whose programs an installed environment
// puts there and a person's tools run later: each with how to know one by
// its path (base name, its parent's, and whether it must hold pyvenv.cfg
// beside it when the parent's name says nothing) and why its programs
// run. One table: the stamp (mcpserver's envStamps) and its answer's
// wording come from here.
var envKinds = []struct {
	base, parent, grandparent string // "" matches any
	venv                      bool   // the parent holds pyvenv.cfg instead
	why                       string
}{
	{base: ".bin", parent: "node_modules", why: "node_modules/.bin: npm scripts and npx run these programs"},
	{base: "bin", parent: "vendor", why: "composer's vendor/bin: composer scripts run these programs"},
	{base: "bin", grandparent: ".tox", why: "a tox environment's programs: tox runs them"},
	{base: "Scripts", grandparent: ".tox", why: "a tox environment's programs: tox runs them"},
	{base: "bin", parent: ".local", why: ".local/bin: programs found on PATH where it is a home's, or run by scripts that add it"},
	{base: "bin", parent: ".venv", why: venvWhy},
	{base: "bin", parent: "venv", why: venvWhy},
	{base: "Scripts", parent: ".venv", why: venvWhy},
	{base: "Scripts", parent: "venv", why: venvWhy},
	{base: "bin", venv: true, why: venvWhy},
	{base: "Scripts", venv: true, why: venvWhy},
}

const venvWhy = "a Python virtual environment's programs: they run when you activate it or run them"

// EnvWhy says why the programs in d run later when d is an installed
// environment's program directory (envKinds), "" when it is not one.
func EnvWhy(d string) string {
	base, parent := filepath.Base(d), filepath.Dir(d)
	for _, k := range envKinds {
		switch {
		case k.base != base:
		case k.parent != "" && filepath.Base(parent) != k.parent:
		case k.grandparent != "" && filepath.Base(filepath.Dir(parent)) != k.grandparent:
		case k.venv && !present(filepath.Join(parent, "pyvenv.cfg")):
		default:
			return k.why
		}
	}
	return ""
}

func present(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

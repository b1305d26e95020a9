package runlater

import (
	"io"
	"path"
	"path/filepath"
	"strings"
)

// A folder of a place that is on the person's PATH runs what is in it
// when the person types its name, on the host, after the run: an
// absolute PATH entry inside the place; a relative entry (".", "bin",
// "./node_modules/.bin"), which is relative to wherever the shell is, so
// to every folder of the place the person may cd into; and what direnv
// puts first on PATH on cd — an .envrc's PATH_add (path_add PATH) and
// PATH= assignments, relative to the .envrc's folder. An executable made
// or changed in one is a run-later file like .envrc itself.

// PathDirs are the folders of one place on the person's PATH.
type PathDirs struct {
	root string
	dirs map[string]string // a folder of the place (slash-separated, "." the place) -> how it is on PATH
	rel  map[string]string // a relative PATH entry (cleaned, slash-separated; "." any folder) -> how
}

// OnPath reads which folders of the place at root (a real path) the PATH
// value pathEnv and the .envrc files envrcs (absolute) put on PATH.
func OnPath(root, pathEnv string, envrcs []string) PathDirs {
	d := OnSearchPath(root, "PATH", pathEnv)
	for _, envrc := range envrcs {
		rel, err := filepath.Rel(root, envrc)
		if err != nil {
			continue
		}
		for _, dir := range envrcPathDirs(envrc) {
			d.addAbs(dir, "your "+filepath.ToSlash(rel)+" puts it on PATH (direnv, on cd)")
		}
	}
	return d
}

// OnSearchPath reads which folders of the place at root (a real path) the
// search path value (a list like PATH's) of the variable name puts first:
// its absolute entries inside the place, and its relative entries, which
// name a folder relative to wherever the person is.
func OnSearchPath(root, name, value string) PathDirs {
	d := PathDirs{root: root, dirs: map[string]string{}, rel: map[string]string{}}
	if value == "" {
		return d
	}
	for _, e := range filepath.SplitList(value) {
		if !filepath.IsAbs(e) {
			rel := path.Clean(filepath.ToSlash(e))
			for strings.HasPrefix(rel, "../") {
				rel = strings.TrimPrefix(rel, "../")
			}
			if rel == ".." {
				rel = "."
			}
			if _, ok := d.rel[rel]; !ok {
				d.rel[rel] = "your " + name + " has the relative entry " + quoteEntry(e)
			}
			continue
		}
		d.addAbs(e, "your "+name+" has "+e)
	}
	return d
}

func quoteEntry(e string) string {
	if e == "" {
		return `"" (the current folder)`
	}
	return `"` + e + `"`
}

// addAbs records the absolute folder dir when it lies in the place.
func (d PathDirs) addAbs(dir, how string) {
	real := filepath.Clean(dir)
	if r, err := filepath.EvalSymlinks(real); err == nil {
		real = r
	}
	rel, err := filepath.Rel(d.root, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return
	}
	rel = filepath.ToSlash(rel)
	if _, ok := d.dirs[rel]; !ok {
		d.dirs[rel] = how
	}
}

// Why says how the folder of file (slash-separated, relative to the
// place) is on PATH, or "" when it is not.
func (d PathDirs) Why(file string) string {
	dir := path.Dir(file)
	if how, ok := d.dirs[dir]; ok {
		return how
	}
	for rel, how := range d.rel {
		if rel == "." || dir == rel || strings.HasSuffix(dir, "/"+rel) {
			return how
		}
	}
	return ""
}

// envrcPathDirs are the folders the .envrc file envrc puts on PATH:
// PATH_add DIR…, path_add PATH DIR…, and each absolute part of a PATH=
// assignment (export PATH="$PWD/bin:$PATH"), relative ones taken from the
// .envrc's folder.
func envrcPathDirs(envrc string) []string {
	f, err := openRegular(envrc)
	if err != nil {
		return nil
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxEnvrc))
	if err != nil {
		return nil
	}
	here := filepath.Dir(envrc)
	vars := envrcVars{"PWD": {here}}
	var out []string
	add := func(w string) {
		for _, p := range vars.expand(w, here) {
			if p == "" || strings.Contains(p, "$") {
				continue
			}
			if !filepath.IsAbs(p) {
				p = filepath.Join(here, p)
			}
			out = append(out, p)
		}
	}
	for _, cmd := range envrcCommands(string(b)) {
		cmd = vars.take(cmd)
		switch {
		case len(cmd) > 1 && cmd[0] == "PATH_add":
			for _, w := range cmd[1:] {
				add(w)
			}
		case len(cmd) > 2 && cmd[0] == "path_add" && cmd[1] == "PATH":
			for _, w := range cmd[2:] {
				add(w)
			}
		}
	}
	for _, v := range vars["PATH"] {
		for _, part := range strings.Split(v, ":") {
			add(part)
		}
	}
	return out
}

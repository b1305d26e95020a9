package placeflags

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/sentinelhq/sentinel/internal/runlater"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// Reads are what the person's own files of a place say runs later, read
// from the place as it was before the coder acted (Read): the files its
// makefiles include, and its folders on the person's PATH.
type Reads struct {
	root   string
	make   []runlater.Makefile
	paths  runlater.PathDirs
	named  map[string]string // an executable the person's runner files name (absolute) -> how (scripts.go)
	linked []reached         // what the place's run-later links and hooks reach (links.go)
}

// makefileNames are the names make reads as makefiles (a *.mk is one only
// when included, which is what is read here too).
var makefileNames = map[string]bool{"Makefile": true, "makefile": true, "GNUmakefile": true}

// IsRead says whether Read reads a file named base (a makefile, an
// .envrc, a package.json or a justfile): a caller that keeps Reads may
// read again only when one of those changed.
func IsRead(base string) bool {
	return makefileNames[base] || strings.HasSuffix(base, ".mk") || IsEnvrc(base) || base == "package.json" || justfileNames[base]
}

// IsEnvrc says whether base is direnv's file name.
func IsEnvrc(base string) bool { return base == ".envrc" }

// Read reads before's makefiles and .envrc files under root (a real
// path), with pathEnv the PATH the person's shell has and makefilesEnv
// its MAKEFILES (make reads the makefiles it names before any other).
func Read(root string, before *checkpoint.Manifest, pathEnv, makefilesEnv string) Reads {
	r := Reads{root: root}
	isMakefile := func(base string) bool { return makefileNames[base] || strings.HasSuffix(base, ".mk") }
	envrcs := FilesNamed(root, before, IsEnvrc)
	named := FilesNamed(root, before, isMakefile)
	var dirs []string
	for _, f := range named {
		dirs = append(dirs, filepath.Dir(f))
	}
	makefiles := runlater.ReadMakefiles(root, named, envrcs, runlater.EnvMakefiles(root, makefilesEnv, dirs))
	for _, m := range makefiles {
		if len(m.Includes) > 0 || m.Why != "" {
			r.make = append(r.make, m)
		}
	}
	r.paths = runlater.OnPath(root, pathEnv, envrcs)
	r.named = readNamed(root, before, makefiles, envrcs)
	r.linked = readLinked(root, before)
	return r
}

// FilesNamed is the absolute path under root of each regular file of
// before whose name match accepts: the person's files read at the start
// (.envrc files, makefiles), before the coder acts.
func FilesNamed(root string, before *checkpoint.Manifest, match func(base string) bool) []string {
	var out []string
	if before == nil {
		return nil
	}
	for _, e := range before.Entries {
		if e.Kind == checkpoint.KindFile && match(path.Base(e.Path)) {
			out = append(out, filepath.Join(root, filepath.FromSlash(e.Path)))
		}
	}
	return out
}

// Make flags each of files (relative, slash-separated) a makefile
// includes, or that make reads as a makefile of the person's although
// its name does not say so (a `$(MAKE) -f other.rules`, MAKEFILES).
func (r Reads) Make(files []string) []Flag {
	var out []Flag
	for _, f := range files {
		abs := filepath.Join(r.root, filepath.FromSlash(f))
		for _, m := range r.make {
			if m.File == abs && m.Why != "" {
				out = append(out, Flag{f, m.Why + ": make reads it as a makefile on your next make"})
				break
			}
			how, ok := m.IncludesFile(abs)
			if !ok {
				continue
			}
			rel, _ := filepath.Rel(r.root, m.File)
			out = append(out, Flag{f, "your " + filepath.ToSlash(rel) + " includes it (`" + how + "`): make runs what it says on your next make"})
			break
		}
	}
	return out
}

// OnPath flags each executable file or symlink of changes, made or
// changed, in a folder on the person's PATH.
func (r Reads) OnPath(changes []checkpoint.Change) []Flag {
	var out []Flag
	for _, c := range changes {
		a, b := c.After, c.Before
		if a == nil || !(a.Kind == checkpoint.KindSymlink || a.Kind == checkpoint.KindFile && a.Mode&0o111 != 0) {
			continue
		}
		if b != nil && b.Kind == a.Kind && b.Hash == a.Hash && b.Target == a.Target && b.Mode&0o111 == a.Mode&0o111 {
			continue
		}
		if how := r.paths.Why(c.Path); how != "" {
			out = append(out, Flag{c.Path, "in a folder on your PATH (" + how + "): typing its name runs it on your machine, outside the sandbox"})
		}
	}
	return out
}

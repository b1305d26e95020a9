package runner

import (
	"path"
	"strings"

	"github.com/sentinelhq/sentinel/internal/placeflags"
	"github.com/sentinelhq/sentinel/internal/runlater"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
	"github.com/sentinelhq/sentinel/runner/patch"
)

// inPlaceFlags are the changes of an in-place run that run code later,
// flagged as the review screen flags a patch (patch.WhyRunsCodeLater: the
// one list, policy/runlater.toml; new executables, symlinks) plus what
// only in place can change: files in ignored environments that run when
// the person activates or builds (a virtualenv's scripts and packages,
// node_modules/.bin), and a new git dir.
func inPlaceFlags(changes []checkpoint.Change, before, after *checkpoint.Manifest) []Flag {
	var out []Flag
	for _, c := range changes {
		if c.After == nil {
			continue // a deletion leaves nothing behind to run
		}
		var why []string
		// A file's name says whether it runs later; a directory's entry
		// does not (a deleted or new dir named build is not bazel's BUILD
		// file): what it holds is judged entry by entry.
		if w := patch.WhyRunsCodeLater(c.Path); w != "" && c.After.Kind != checkpoint.KindDir {
			why = append(why, w)
		}
		if w := environmentScript(c.Path, before, after); w != "" {
			why = append(why, w)
		}
		if c.After.Kind == checkpoint.KindFile && (c.Before == nil || c.Before.Hash != c.After.Hash) {
			if w := runlater.LibraryWhy(path.Base(c.Path)); w != "" { // a planted libc.so.6 (internal/runlater/solib.go)
				why = append(why, w)
			}
		}
		if w := kindFlag(c); w != "" {
			why = append(why, w)
		}
		if w := placeflags.Writable(c); w != "" {
			why = append([]string{w}, why...)
		}
		if w := placeflags.DefaultACL(c); w != "" {
			why = append([]string{w}, why...)
		}
		if w := placeflags.Owner(c, c.Path); w != "" {
			why = append([]string{w}, why...)
		}
		if len(why) > 0 {
			out = append(out, Flag{c.Path, strings.Join(why, " · ")})
		}
	}
	return out
}

// kindFlag is what the patch flagger says of a new mode (patch/flag.go),
// for a change seen on disk.
func kindFlag(c checkpoint.Change) string {
	a, b := c.After, c.Before
	switch {
	case a == nil:
		return ""
	case a.Kind == checkpoint.KindGit && (b == nil || b.Kind != checkpoint.KindGit):
		return "new git dir: git runs its hooks and config on your next command there"
	case a.Kind == checkpoint.KindSymlink && b != nil && b.Kind == checkpoint.KindSymlink:
		return "symlink changed: what it points to is what tools open"
	case a.Kind == checkpoint.KindSymlink:
		return "new symlink: what it points to is what tools open"
	case a.Kind == checkpoint.KindFile && a.Mode&0o111 != 0 && (b == nil || b.Kind != checkpoint.KindFile):
		return "new executable"
	case a.Kind == checkpoint.KindFile && a.Mode&0o111 != 0 && b.Mode&0o111 == 0:
		return "made executable"
	}
	return ""
}

// dangerousPrefix starts the reason of a flag that is DANGEROUS in
// itself, whatever the file holds.
const dangerousPrefix = placeflags.Dangerous

// environmentScript says why the slash-separated path p, in an installed
// environment the project usually ignores, runs code later.
func environmentScript(p string, before, after *checkpoint.Manifest) string {
	elems := strings.Split(p, "/")
	for i := len(elems) - 1; i >= 1; i-- {
		dir := strings.Join(elems[:i], "/")
		venvNamed := (elems[i-1] == ".venv" || elems[i-1] == "venv") && (elems[i] == "bin" || elems[i] == "Scripts")
		if venvNamed || isVenv(dir, before, after) {
			return "Python virtual environment: its scripts and packages run when you activate it or run its programs"
		}
		if elems[i-1] == "node_modules" && elems[i] == ".bin" {
			return "node_modules/.bin: npm scripts and npx run these programs"
		}
		if elems[i-1] == "node_modules" && i < len(elems)-1 {
			// node_modules/.bin/jest links to ../jest/bin/jest.js: writing
			// through it changes the package's file, not the link
			return "an installed npm package: its programs run from node_modules/.bin and its files when required"
		}
		if elems[i-1] == "site-packages" || elems[i-1] == "dist-packages" {
			return "an installed Python package: runs when it is imported"
		}
	}
	return ""
}

// isVenv: dir holds a pyvenv.cfg, before the run or after it.
func isVenv(dir string, before, after *checkpoint.Manifest) bool {
	cfg := dir + "/pyvenv.cfg"
	_, was := before.Get(cfg)
	_, is := after.Get(cfg)
	return was || is
}

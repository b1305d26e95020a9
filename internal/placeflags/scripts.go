package placeflags

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/sentinelhq/sentinel/internal/runlater"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// An executable that was already there (scripts/test.sh, mode 755) runs
// later when the person runs what names it: a target of their Makefile,
// a package.json script, a justfile recipe, their .envrc. Changed, it is
// flagged with what runs it — only when one of those files names it
// literally (runlater.Named: a command's first word or an interpreter's
// operand), so that not every script a coder touches is.

// maxRunnerFiles bounds how many package.json files and justfiles are
// read (each up to runlater's bound).
const maxRunnerFiles = 64

var justfileNames = map[string]bool{"justfile": true, "Justfile": true, ".justfile": true}

// readNamed is each executable the person's runner files name, with how.
func readNamed(root string, before *checkpoint.Manifest, makefiles []runlater.Makefile, envrcs []string) map[string]string {
	out := map[string]string{}
	add := func(ns []runlater.Named) {
		for _, n := range ns {
			if _, ok := out[n.Path]; !ok {
				out[n.Path] = n.How
			}
		}
	}
	rel := func(f string) string {
		r, _ := filepath.Rel(root, f)
		return filepath.ToSlash(r)
	}
	for _, m := range makefiles {
		add(m.Runs(rel(m.File)))
	}
	for _, e := range envrcs {
		add(runlater.EnvrcRuns(e, rel(e)))
	}
	installed := func(f string) bool { return slices.Contains(strings.Split(rel(f), "/"), "node_modules") }
	n := 0
	for _, f := range FilesNamed(root, before, func(base string) bool { return base == "package.json" || justfileNames[base] }) {
		if installed(f) || n >= maxRunnerFiles {
			continue
		}
		n++
		if filepath.Base(f) == "package.json" {
			add(runlater.PackageScripts(f, rel(f)))
		} else {
			add(runlater.JustfileRuns(f, rel(f)))
		}
	}
	return out
}

// Scripts flags each executable of changes that was there before, is
// changed, and is named by one of the person's runner files.
func (r Reads) Scripts(changes []checkpoint.Change) []Flag {
	var out []Flag
	for _, c := range changes {
		a, b := c.After, c.Before
		if a == nil || b == nil || a.Kind != checkpoint.KindFile || b.Kind != checkpoint.KindFile || a.Mode&0o111 == 0 || b.Mode&0o111 == 0 || a.Hash == b.Hash {
			continue
		}
		if how, ok := r.named[filepath.Join(r.root, filepath.FromSlash(c.Path))]; ok {
			out = append(out, Flag{c.Path, how + ": what it now says runs on your machine, outside the sandbox, when you run that"})
		}
	}
	return out
}

package runner

import (
	"path/filepath"
	"strings"

	"github.com/sentinelhq/sentinel/internal/runlater"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// make reads what a makefile includes as make code on the next make,
// whatever its name (runlater.ReadMakefile). The person's makefiles are
// read when the checkpoint is taken (before the coder acts), and a changed
// file one of them includes is flagged at the end like the makefile.

// makeReads are the person's makefiles as read at the start, with the
// root they were read under.
type makeReads struct {
	root  string
	files []runlater.Makefile
}

// makefileNames are the names make reads as makefiles (a *.mk is one only
// when included, which is what is read here too).
var makefileNames = map[string]bool{"Makefile": true, "makefile": true, "GNUmakefile": true}

// makeIncludes reads each of before's makefiles under root.
func makeIncludes(root string, before *checkpoint.Manifest) makeReads {
	out := makeReads{root: root}
	isMakefile := func(base string) bool { return makefileNames[base] || strings.HasSuffix(base, ".mk") }
	for _, f := range filesNamed(root, before, isMakefile) { // inplace_envrc.go
		if m := runlater.ReadMakefile(f); len(m.Includes) > 0 {
			out.files = append(out.files, m)
		}
	}
	return out
}

// makeFlags flags each of files (relative, slash-separated) a makefile
// includes.
func makeFlags(files []string, reads makeReads) []Flag {
	var out []Flag
	for _, f := range files {
		abs := filepath.Join(reads.root, filepath.FromSlash(f))
		for _, m := range reads.files {
			how, ok := m.IncludesFile(abs)
			if !ok {
				continue
			}
			rel, _ := filepath.Rel(reads.root, m.File)
			out = append(out, Flag{f, "your " + filepath.ToSlash(rel) + " includes it (`" + how + "`): make runs what it says on your next make"})
			break
		}
	}
	return out
}

package runlater

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// What else make reads as the person's makefiles, without running make:
// a makefile a recipe runs make on ($(MAKE) -C sub, make -f other.mk),
// and the makefiles an .envrc names in MAKEFILES (make reads them before
// any other, in every make). Each is read for its includes too, and is
// flagged when changed whatever its name (Makefile.Why). Bounded: chains
// of sub-makes maxMakeDepth deep, maxMakefiles makefiles in all, each
// read up to maxMakefile bytes.

const (
	maxMakeDepth = 4
	maxMakefiles = 64
)

// ReadMakefiles reads the makefiles files (absolute, the person's by
// name), the makefiles the person's own MAKEFILES names (envMakefiles,
// EnvMakefiles' answer) and the .envrc files envrcs (absolute) of the
// place at root, and follows what they make read as makefiles, inside
// root.
func ReadMakefiles(root string, files, envrcs []string, envMakefiles []MakefileAt) []Makefile {
	type todo struct {
		file, dir, why string
		depth          int
	}
	var queue []todo
	for _, f := range envMakefiles {
		queue = append(queue, todo{file: f.File, dir: f.Dir, why: "your MAKEFILES names it (`" + filepath.Base(f.File) + "`): make reads it before your makefile in every make"})
	}
	for _, f := range files {
		queue = append(queue, todo{file: f, dir: filepath.Dir(f)})
	}
	for _, e := range envrcs {
		for _, f := range envrcMakefiles(e) {
			rel, _ := filepath.Rel(root, e)
			queue = append(queue, todo{file: f, dir: filepath.Dir(e), why: "your " + filepath.ToSlash(rel) + " sets MAKEFILES (`" + filepath.Base(f) + "`): make reads it before your makefile in every make there"})
		}
	}
	seen := map[string]bool{}
	var out []Makefile
	for len(queue) > 0 && len(out) < maxMakefiles {
		t := queue[0]
		queue = queue[1:]
		if !within(t.file, root) {
			continue
		}
		if _, ok := seen[t.file]; ok {
			continue // read already: by its name, or the first reason found
		}
		m := ReadMakefile(t.file)
		m.Dir, m.Why = t.dir, t.why
		seen[t.file] = true
		out = append(out, m)
		if t.depth >= maxMakeDepth {
			continue
		}
		rel, _ := filepath.Rel(root, t.file)
		for _, s := range m.subs {
			if s.dyn {
				for _, d := range dynDirs(filepath.Join(t.dir, s.dir), s.file) { // makeinc_loops.go
					queue = append(queue, todo{file: d.file, dir: d.dir, depth: t.depth + 1,
						why: "your " + filepath.ToSlash(rel) + " runs make in folders it names only when it runs (`" + s.text + "`), maybe this one"})
				}
				continue
			}
			file := s.file
			if file == "" {
				file = defaultMakefile(filepath.Join(t.dir, s.dir))
				if file == "" {
					continue
				}
			}
			dir := filepath.Join(t.dir, s.dir)
			if !filepath.IsAbs(file) {
				file = filepath.Join(dir, file)
			}
			queue = append(queue, todo{file: filepath.Clean(file), dir: dir, depth: t.depth + 1,
				why: "your " + filepath.ToSlash(rel) + " runs make on it (`" + s.text + "`)"})
		}
	}
	return out
}

// defaultMakefile is the makefile make reads in dir with no -f, "" when
// there is none.
func defaultMakefile(dir string) string {
	for _, n := range []string{"GNUmakefile", "makefile", "Makefile"} {
		if fi, err := os.Stat(filepath.Join(dir, n)); err == nil && fi.Mode().IsRegular() {
			return filepath.Join(dir, n)
		}
	}
	return ""
}

// subMake is one make a recipe runs: in dir (-C, relative to where the
// makefile's make runs), on file (-f, relative to dir; "" the default).
// dyn: in a folder below dir the recipe names only when it runs (-C $$d,
// cd $$d, the loop not read: makeinc_loops.go).
type subMake struct {
	dir, file, text string
	dyn             bool
}

// isMake says whether a recipe word runs make.
func isMake(w string) bool {
	w = strings.TrimLeft(w, "@+-")
	switch w {
	case "$(MAKE)", "${MAKE}", "make", "gmake", "$(MAKE_COMMAND)":
		return true
	}
	return strings.HasSuffix(w, "/make")
}

// recipeMakes are the makes the recipe line runs with a -C or -f it can
// read, after a `cd DIR` earlier on the line. One in a folder named from
// a variable (-C $$d, after cd $$d) is dyn; a -f built from one, or a
// make after a cd out of the place, is not followed.
func recipeMakes(line string) []subMake {
	var out []subMake
	cwd, lost, dyn := "", false, false
	for _, cmd := range envrcCommands(strings.TrimLeft(strings.TrimPrefix(line, "\t"), "@+- \t")) {
		cmd = unSubshell(cmd) // (cd d && $(MAKE)): makeinc_loops.go
		if len(cmd) > 0 && cmd[0] == "cd" {
			switch {
			case len(cmd) == 2 && strings.Contains(cmd[1], "$") && !filepath.IsAbs(cmd[1]) && !dyn:
				dyn = true
			case len(cmd) != 2 || strings.Contains(cmd[1], "$") || filepath.IsAbs(cmd[1]):
				lost = true
			default:
				cwd = filepath.Join(cwd, filepath.FromSlash(cmd[1]))
			}
			continue
		}
		start := -1
		for i, w := range cmd {
			if isMake(w) {
				start = i
				break
			}
		}
		if start < 0 {
			continue
		}
		s := subMake{dir: cwd, text: strings.Join(cmd[start:], " "), dyn: dyn}
		ok := !lost
		args := cmd[start+1:]
		for i := 0; i < len(args); i++ {
			a, val := args[i], ""
			var into *string
			switch {
			case a == "-C" || a == "--directory" || a == "-f" || a == "--file" || a == "--makefile":
				if i+1 < len(args) {
					val = args[i+1]
					i++
				}
				into = &s.dir
				if a != "-C" && a != "--directory" {
					into = &s.file
				}
			case strings.HasPrefix(a, "--directory="):
				val, into = strings.TrimPrefix(a, "--directory="), &s.dir
			case strings.HasPrefix(a, "--file=") || strings.HasPrefix(a, "--makefile="):
				_, val, _ = strings.Cut(a, "=")
				into = &s.file
			case strings.HasPrefix(a, "-C") && len(a) > 2:
				val, into = a[2:], &s.dir
			case strings.HasPrefix(a, "-f") && len(a) > 2:
				val, into = a[2:], &s.file
			default:
				continue
			}
			if val != "" && strings.Contains(val, "$") && into == &s.dir && !s.dyn && !filepath.IsAbs(val) {
				s.dyn = true // -C $$d: below where it runs
				continue
			}
			if val == "" || strings.Contains(val, "$") {
				ok = false
				break
			}
			*into = filepath.Join(*into, filepath.FromSlash(val)) // -C a -C b is a/b
		}
		if ok && (s.dir != "" || s.file != "" || s.dyn) && (s.dir != "." || s.dyn) {
			out = append(out, s)
		}
	}
	return out
}

// makeAssign is a makefile's variable assignment (override/export
// allowed; != runs the shell and is not read).
var makeAssign = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:override\s+|export\s+)*([A-Za-z_][A-Za-z0-9_.-]*)\s*(::?=|:::=|\?=|\+=|=)\s*(.*)$`)
})

// maxVarDepth bounds how deep a variable's value is expanded through
// other variables.
const maxVarDepth = 4

// maxVarVisits bounds the variable references one word's expansion
// follows in all: 64 words a variable at 4 levels would otherwise be 64^4
// (a coder's makefile making the end report or mcp hang). Past it a word
// stays as written, unexpanded.
const maxVarVisits = 4096

// makeVars are a makefile's variables: each value any assignment gave
// (+= adds, a later = may be in a branch), as words.
type makeVars map[string][]string

// record reads line as an assignment, when it is one.
func (v makeVars) record(line string) {
	m := makeAssign().FindStringSubmatch(strings.TrimSpace(line))
	if m == nil {
		return
	}
	if len(v[m[1]]) < 64 {
		v[m[1]] = append(v[m[1]], makeWords(m[3])...)
		v[m[1]] = v[m[1]][:min(len(v[m[1]]), 64)] // one assignment of any length
	}
}

// expand is what one include word names, with a bare $(VAR) or ${VAR}
// the makefile assigns replaced by the words it gave.
func (v makeVars) expand(w, text string, depth int, visits *int) []MakeInclude {
	if *visits++; *visits > maxVarVisits {
		return makeInclude(w, text)
	}
	name := ""
	if (strings.HasPrefix(w, "$(") && strings.HasSuffix(w, ")")) || (strings.HasPrefix(w, "${") && strings.HasSuffix(w, "}")) {
		name = w[2 : len(w)-1]
	}
	vals, ok := v[name]
	if name == "" || !ok || strings.ContainsAny(name, "$:( ") || depth >= maxVarDepth {
		return makeInclude(w, text)
	}
	var out []MakeInclude
	for _, val := range vals {
		out = append(out, v.expand(val, text, depth+1, visits)...)
	}
	return out
}

// EnvMakefiles are the makefiles of the place at root that the person's
// MAKEFILES (value, from their environment) makes every make of theirs
// read first: an absolute entry inside root; a relative one is relative
// to wherever make runs, so that name in root and in each folder of dirs
// (the folders of the place's makefiles). An entry with a $ is left out
// (make expands it; it is not followed). Each is read as make reads it
// from its folder: an absolute one's includes from root, a relative one's
// from the folder it was found from.
func EnvMakefiles(root, value string, dirs []string) []MakefileAt {
	var out []MakefileAt
	for _, p := range strings.Fields(value) {
		if strings.Contains(p, "$") {
			continue
		}
		if filepath.IsAbs(p) {
			out = append(out, MakefileAt{filepath.Clean(p), root})
			continue
		}
		for _, d := range append([]string{root}, dirs...) {
			out = append(out, MakefileAt{filepath.Join(d, p), d})
		}
	}
	return out
}

// MakefileAt is a makefile and the folder make reads it from (where its
// relative includes are found).
type MakefileAt struct{ File, Dir string }

// envrcMakefiles are the makefiles an .envrc's MAKEFILES names (export
// MAKEFILES=common.mk), absolute, relative ones taken from its folder.
func envrcMakefiles(envrc string) []string {
	b, err := readRegular(envrc, maxEnvrc)
	if err != nil {
		return nil
	}
	here := filepath.Dir(envrc)
	vars := envrcVars{"PWD": {here}}
	for _, cmd := range envrcCommands(string(b)) {
		vars.take(cmd)
	}
	var out []string
	for _, v := range vars["MAKEFILES"] {
		for _, p := range strings.Fields(v) {
			if strings.Contains(p, "$") {
				continue
			}
			if !filepath.IsAbs(p) {
				p = filepath.Join(here, p)
			}
			out = append(out, filepath.Clean(p))
		}
	}
	return out
}

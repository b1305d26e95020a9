package runlater

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A recipe that runs make in each of several folders does it in a shell
// loop: `for d in $(SUBDIRS); do $(MAKE) -C $$d; done`. The loop is read
// when its words can be: literal folder names, variables the makefile
// assigns, globs (matched in the folder make runs in); the make is then
// followed once per word, as if the recipe named each. A loop (or a
// -C $$d, a cd $$d) whose words are known only when it runs ($$(ls),
// $(shell …), a variable the makefile does not assign) is followed into
// every folder right below where make runs that has a makefile, each read
// with why it may be one (dynDirs): Sentinel cannot tell which, so it
// reads them all, bounded as every follow is (maxMakefiles).

// maxLoopWords bounds the words a loop is followed for.
const maxLoopWords = 64

// loopMakes are the makes a recipe line runs (recipeMakes), with a for
// loop's variable read as each of its words when they can be known; vars
// are the makefile's, dir is where its make runs.
func loopMakes(line string, vars makeVars, dir string) []subMake {
	name, words, ok := recipeLoop(line, vars, dir)
	if !ok {
		return recipeMakes(line)
	}
	var out []subMake
	for _, w := range words {
		out = append(out, recipeMakes(shellVarAs(line, name, w))...)
	}
	return out
}

// recipeLoop reads `for NAME in WORDS; do …` at the start of a recipe
// line: NAME and WORDS as folder names relative to dir, ok only when each
// word is known.
func recipeLoop(line string, vars makeVars, dir string) (name string, words []string, ok bool) {
	rest := strings.TrimLeft(strings.TrimPrefix(line, "\t"), "@+- \t")
	rest, found := strings.CutPrefix(rest, "for ")
	if !found {
		return "", nil, false
	}
	name, rest, _ = strings.Cut(strings.TrimSpace(rest), " ")
	rest, found = strings.CutPrefix(strings.TrimSpace(rest), "in ")
	if !found || name == "" || strings.ContainsAny(name, "$;") {
		return "", nil, false
	}
	list, _, found := strings.Cut(rest, ";")
	if !found {
		return "", nil, false
	}
	for _, w := range makeWords(list) {
		visits := 0
		for _, v := range vars.words(w, 0, &visits) {
			switch {
			case strings.Contains(v, "$") || strings.ContainsAny(v, "`'\"\\"):
				return "", nil, false // known only when it runs
			case strings.ContainsAny(v, "*?["):
				ms, err := filepath.Glob(filepath.Join(dir, v))
				if err != nil {
					return "", nil, false
				}
				for _, m := range ms {
					if rel, err := filepath.Rel(dir, m); err == nil {
						words = append(words, filepath.ToSlash(rel))
					}
				}
			default:
				words = append(words, v)
			}
		}
		if len(words) > maxLoopWords {
			words = words[:maxLoopWords]
			break
		}
	}
	return name, words, true
}

// words is what one word of a recipe names with a bare $(VAR) or ${VAR}
// the makefile assigns replaced by its words (the word itself otherwise).
func (v makeVars) words(w string, depth int, visits *int) []string {
	if *visits++; *visits > maxVarVisits {
		return []string{w}
	}
	name := ""
	if (strings.HasPrefix(w, "$(") && strings.HasSuffix(w, ")")) || (strings.HasPrefix(w, "${") && strings.HasSuffix(w, "}")) {
		name = w[2 : len(w)-1]
	}
	vals, ok := v[name]
	if name == "" || !ok || strings.ContainsAny(name, "$:( ") || depth >= maxVarDepth {
		return []string{w}
	}
	var out []string
	for _, val := range vals {
		out = append(out, v.words(val, depth+1, visits)...)
	}
	return out
}

// shellVarAs is line with the shell variable name ($$name, $${name}: the
// shell's $ escaped from make) read as word.
func shellVarAs(line, name, word string) string {
	var b strings.Builder
	for i := 0; i < len(line); {
		if rest := line[i:]; strings.HasPrefix(rest, "$${"+name+"}") {
			b.WriteString(word)
			i += len(name) + 4
			continue
		} else if strings.HasPrefix(rest, "$$"+name) && !(len(rest) > len(name)+2 && isNameByte(rest[len(name)+2])) {
			b.WriteString(word)
			i += len(name) + 2
			continue
		}
		b.WriteByte(line[i])
		i++
	}
	return b.String()
}

// unSubshell is cmd without the parentheses of a subshell around it:
// "(cd" is cd, "$(MAKE))" is $(MAKE).
func unSubshell(cmd []string) []string {
	for len(cmd) > 0 && strings.HasPrefix(cmd[0], "(") {
		if cmd[0] = cmd[0][1:]; cmd[0] == "" {
			cmd = cmd[1:]
		}
	}
	if n := len(cmd); n > 0 {
		w := cmd[n-1]
		for strings.Count(w, ")") > strings.Count(w, "(") && strings.HasSuffix(w, ")") {
			w = w[:len(w)-1]
		}
		if cmd[n-1] = w; w == "" {
			cmd = cmd[:n-1]
		}
	}
	return cmd
}

// dynMake is a makefile a make in a folder named when it runs may read.
type dynMake struct{ file, dir string }

// dynDirs are the makefiles of the folders right below dir that a make
// there reads (file when -f names one, the default makefile otherwise),
// in name order.
func dynDirs(dir, file string) []dynMake {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []dynMake
	for _, e := range ents {
		if !e.IsDir() || len(out) >= maxMakefiles {
			continue
		}
		sub := filepath.Join(dir, e.Name())
		f := file
		if f == "" {
			f = defaultMakefile(sub)
		} else if !filepath.IsAbs(f) {
			f = filepath.Join(sub, f)
		}
		if fi, err := os.Stat(f); f == "" || err != nil || !fi.Mode().IsRegular() {
			continue
		}
		out = append(out, dynMake{file: filepath.Clean(f), dir: sub})
	}
	slices.SortFunc(out, func(a, b dynMake) int { return strings.Compare(a.file, b.file) })
	return out
}

package runlater

import (
	"path"
	"path/filepath"
	"strings"
)

// make reads every file a makefile includes (include, -include, sinclude)
// as make code: a rule or a $(shell …) there runs on the person's next
// make, whatever the file is called (a generated build/main.d, a
// config/local.conf). Only the makefiles' own names and *.mk are
// run-later by name, so the person's makefiles are read for what they
// include.

// maxMakefile bounds how much of a makefile is read.
const maxMakefile = 256 << 10

// MakeInclude is one name a makefile includes, relative to the
// makefile's directory (where make runs): a path or a glob (Pattern), or
// only a suffix (Suffix, from a name built from a variable:
// -include $(OBJS:.o=.d) includes files ending in .d). Text is the
// directive as written, for the flag.
type MakeInclude struct {
	Pattern, Suffix, Text string
}

// Makefile is what one makefile includes.
type Makefile struct {
	File     string // its path
	Includes []MakeInclude
	// Dir is where make runs it, which its include names are relative
	// to: the makefile's folder, or a sub-make's -C (ReadMakefiles).
	Dir string
	// Why is set for a makefile read because another file makes make read
	// it (a sub-make's -f, MAKEFILES), not by its name: what does.
	Why  string
	subs []subMake  // the makes its recipes run (makeinc_follow.go)
	runs []namedRun // the files its recipes name to run (scriptnames.go)
}

// ReadMakefile reads the include directives of the makefile at file.
func ReadMakefile(file string) Makefile {
	m := Makefile{File: file, Dir: filepath.Dir(file)}
	b, err := readRegular(file, maxMakefile)
	if err != nil {
		return m
	}
	lines := makeLines(string(b))
	vars := makeVars{}
	for _, line := range lines {
		if !strings.HasPrefix(line, "\t") {
			vars.record(line)
		}
	}
	target := ""
	for _, line := range lines {
		if strings.HasPrefix(line, "\t") {
			m.subs = append(m.subs, loopMakes(line, vars, m.Dir)...) // the shell's, not make's: only a sub-make is read (makeinc_loops.go)
			m.runs = append(m.runs, recipeRuns(line, target)...)
			continue
		}
		if t, ok := ruleTarget(line); ok {
			target = t
		}
		verb, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
		if verb != "include" && verb != "-include" && verb != "sinclude" {
			continue
		}
		text := strings.TrimSpace(line)
		for _, w := range makeWords(rest) {
			visits := 0
			m.Includes = append(m.Includes, vars.expand(w, text, 0, &visits)...)
		}
	}
	return m
}

// IncludesFile reports whether the makefile includes the file at abs, and the
// directive that does.
func (m Makefile) IncludesFile(abs string) (string, bool) {
	dir := m.Dir
	if dir == "" {
		dir = filepath.Dir(m.File)
	}
	rel, err := filepath.Rel(dir, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	rel = filepath.ToSlash(rel)
	for _, in := range m.Includes {
		if in.Pattern != "" {
			if ok, _ := path.Match(path.Clean(in.Pattern), rel); ok {
				return in.Text, true
			}
		}
		if in.Suffix != "" && strings.HasSuffix(rel, in.Suffix) {
			return in.Text, true
		}
	}
	return "", false
}

// makeLines is s split into logical lines: a backslash at a line's end
// joins the next; comments dropped.
func makeLines(s string) []string {
	var out []string
	var cur strings.Builder
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSuffix(l, "\r")
		if i := strings.Index(l, "#"); i >= 0 && (i == 0 || l[i-1] != '\\') {
			l = l[:i]
		}
		if strings.HasSuffix(l, "\\") {
			cur.WriteString(strings.TrimSuffix(l, "\\") + " ")
			continue
		}
		cur.WriteString(l)
		out = append(out, cur.String())
		cur.Reset()
	}
	return append(out, cur.String())
}

// makeWords splits s at blanks outside $(…) and ${…}.
func makeWords(s string) []string {
	var out []string
	depth, start := 0, -1
	for i := 0; i <= len(s); i++ {
		c := byte(' ')
		if i < len(s) {
			c = s[i]
		}
		switch {
		case c == '(' || c == '{':
			depth++
		case (c == ')' || c == '}') && depth > 0:
			depth--
		case (c == ' ' || c == '\t') && depth == 0:
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	return out
}

// makeInclude is what one word of an include directive names.
func makeInclude(w, text string) []MakeInclude {
	if !strings.Contains(w, "$") {
		return []MakeInclude{{Pattern: w, Text: text}}
	}
	if inner, ok := strings.CutPrefix(w, "$(wildcard "); ok && strings.HasSuffix(inner, ")") && !strings.Contains(inner, "$") {
		var out []MakeInclude
		for _, p := range strings.Fields(strings.TrimSuffix(inner, ")")) {
			out = append(out, MakeInclude{Pattern: p, Text: text})
		}
		return out
	}
	// A name built from a variable: what follows its last reference, or a
	// substitution's replacement ($(OBJS:.o=.d), $(SRCS:%.c=%.d)).
	end := strings.LastIndexAny(w, ")}")
	if tail := w[end+1:]; end >= 0 && strings.Contains(tail, ".") {
		return []MakeInclude{{Suffix: strings.TrimPrefix(tail, "%"), Text: text}}
	}
	if _, repl, ok := strings.Cut(w[:max(end, 0)], "="); ok && !strings.ContainsAny(repl, "$") {
		if _, suf, ok := strings.Cut(repl, "%"); ok {
			repl = suf
		}
		if strings.Contains(repl, ".") {
			return []MakeInclude{{Suffix: repl, Text: text}}
		}
	}
	return nil // $(DEPS) the makefile does not assign: cannot be told without running make
}

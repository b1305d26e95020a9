package policy

import (
	_ "embed"
	"fmt"
	"path"
	"strings"
	"unicode"

	"github.com/BurntSushi/toml"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// RunLaterClass says when a file that runs code later runs, and so how
// strictly the coder's writes to it are held.
type RunLaterClass string

// The classes of runlater.toml, strongest first.
const (
	// RunsUnasked: the person's machine runs or obeys it without being
	// asked (editor tasks, direnv, agent settings, git hooks, CI). Writes
	// are person-only; review and report flag it.
	RunsUnasked RunLaterClass = "auto"
	// RunsOnBuild: it runs when the person builds, tests or installs.
	// Review and report flag it; the policy does not block it.
	RunsOnBuild RunLaterClass = "build"
	// AgentInstructions: an agent reads and obeys it. Flagged, not blocked.
	AgentInstructions RunLaterClass = "instructions"
	// ReadOnCd: a version manager reads it when the person cds into the
	// folder (.python-version, .nvmrc) and picks, or fetches, the
	// interpreter it names. Flagged in the report, not blocked: the
	// coder may mean it (pyenv local, uv python pin).
	ReadOnCd RunLaterClass = "cd"
)

// RunLaterEntry is one entry of runlater.toml.
type RunLaterEntry struct {
	Pattern string        `toml:"pattern"`
	Reason  string        `toml:"reason"`
	Class   RunLaterClass `toml:"-"`
	// JVMOptions: the file holds options the build passes to the JVM;
	// a write naming one that loads code asks (jvmoptions.go).
	JVMOptions bool `toml:"jvm_options"`

	dir   bool     // the pattern ended in "/": it covers everything below too
	elems []string // the folded pattern, split at "/"
}

//go:embed runlater.toml
var runLaterTOML string

// runLaterList is runlater.toml, strongest class first, in file order.
// It is read on first use, not at start: every process (each hook call,
// the sandbox helper) would otherwise pay for decoding it.
var runLaterList = lazy[[]RunLaterEntry]{build: func() []RunLaterEntry { return mustLoadRunLater(runLaterTOML) }}

// RunLaterEntries is the whole list, strongest class first, in file order.
func RunLaterEntries() []RunLaterEntry { return append([]RunLaterEntry(nil), runLaterList.get()...) }

// RunsLater finds the entry that says why the project-relative path p runs
// code later: the first match of the strongest class. It reports false for
// a path no entry matches.
func RunsLater(p string) (RunLaterEntry, bool) {
	elems := foldedElems(p)
	for _, e := range runLaterList.get() {
		if e.matches(elems) {
			return e, true
		}
	}
	return RunLaterEntry{}, false
}

// runLater reports whether a write to the workspace-relative path r is one
// only the person may approve: an auto entry matches it, or r is a
// directory above a root-anchored auto entry (`mv x .github` creates
// .github/workflows).
func runLater(r string) (RunLaterEntry, bool) {
	if e, ok := RunsLaterHere(r); ok && e.Class == RunsUnasked {
		return e, true
	}
	elems := foldedElems(r)
	if len(elems) == 0 {
		return RunLaterEntry{}, false
	}
	for _, e := range runLaterList.get() {
		if e.Class == RunsUnasked && e.holds(elems) {
			return e, true
		}
	}
	return RunLaterEntry{}, false
}

func (e RunLaterEntry) matches(elems []string) bool {
	if len(e.elems) == 2 && e.elems[0] == "**" {
		// the common "**/name" and "**/dir/": one element to compare
		if e.dir {
			for _, el := range elems {
				if matchElem(e.elems[1], el) {
					return true
				}
			}
			return false
		}
		return len(elems) > 0 && matchElem(e.elems[1], elems[len(elems)-1])
	}
	if e.dir {
		// the directory itself or anything below it
		for n := len(elems); n > 0; n-- {
			if matchElems(e.elems, elems[:n]) {
				return true
			}
		}
		return false
	}
	return matchElems(e.elems, elems)
}

// matchElem matches one path element against one pattern element.
func matchElem(pat, el string) bool {
	if !isGlob(pat) {
		return pat == el
	}
	ok, _ := path.Match(pat, el)
	return ok
}

func isGlob(pat string) bool {
	for i := 0; i < len(pat); i++ {
		switch pat[i] {
		case '*', '?', '[', '\\':
			return true
		}
	}
	return false
}

// holds reports whether elems names a directory above where the entry's
// literal leading elements lead (".github" for ".github/workflows/").
func (e RunLaterEntry) holds(elems []string) bool {
	if len(elems) >= len(e.elems) {
		return false
	}
	for i, el := range elems {
		if e.elems[i] != el || isGlob(el) {
			return false
		}
	}
	return true
}

// matchElems matches path elements against pattern elements; "**" takes
// any number of elements, none included.
func matchElems(pat, elems []string) bool {
	if len(pat) == 0 {
		return len(elems) == 0
	}
	if pat[0] == "**" {
		for i := 0; i <= len(elems); i++ {
			if matchElems(pat[1:], elems[i:]) {
				return true
			}
		}
		return false
	}
	if len(elems) == 0 {
		return false
	}
	if !matchElem(pat[0], elems[0]) {
		return false
	}
	return matchElems(pat[1:], elems[1:])
}

// foldedElems splits a project-relative path into folded elements, ".."
// resolved against the project root.
func foldedElems(p string) []string {
	c := strings.TrimPrefix(path.Clean("/"+FoldPathName(p)), "/")
	if c == "" {
		return nil
	}
	return strings.Split(c, "/")
}

// FoldPathName is how a file name compares on the file systems a project
// may land on: invisible format characters removed (HFS+ ignores some),
// NFKC-normalised and case-folded, and each element's trailing dots and
// spaces dropped (Windows ignores them). Two names that fold alike may be
// the same file.
func FoldPathName(s string) string {
	if isPlainASCII(s) {
		// NFKC leaves printable ASCII alone and folds it to lower case
		return trimElems(strings.ToLower(s))
	}
	s = strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) ||
			unicode.Is(unicode.Variation_Selector, r) {
			return -1
		}
		return r
	}, s)
	// a Caser may keep state (x/text/cases): one per call, as checks run concurrently
	s = norm.NFKC.String(cases.Fold().String(norm.NFKC.String(s)))
	return trimElems(s)
}

func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return false
		}
	}
	return true
}

// trimElems drops each element's trailing dots and spaces.
func trimElems(s string) string {
	if !strings.ContainsAny(s, ". ") {
		return s
	}
	els := strings.Split(s, "/")
	for i, el := range els {
		if t := strings.TrimRight(el, ". "); t != "" && el != "." && el != ".." {
			els[i] = t
		}
	}
	return strings.Join(els, "/")
}

// mustLoadRunLater reads runlater.toml; a bad entry is a build-time
// mistake, so it panics naming the entry (a test loads it).
func mustLoadRunLater(src string) []RunLaterEntry {
	list, err := loadRunLater(src)
	if err != nil {
		panic(err)
	}
	return list
}

func loadRunLater(src string) ([]RunLaterEntry, error) {
	var file map[string][]RunLaterEntry
	md, err := toml.Decode(src, &file)
	if err != nil {
		return nil, fmt.Errorf("policy/runlater.toml: %w", err)
	}
	if un := md.Undecoded(); len(un) > 0 {
		return nil, fmt.Errorf("policy/runlater.toml: unknown key %q (want pattern, reason and optionally jvm_options)", un[0].String())
	}
	var out []RunLaterEntry
	for _, class := range []RunLaterClass{RunsUnasked, RunsOnBuild, AgentInstructions, ReadOnCd} {
		for _, e := range file[string(class)] {
			e.Class = class
			if e.Pattern == "" || e.Reason == "" {
				return nil, fmt.Errorf("policy/runlater.toml: %s entry %q needs both a pattern and a reason", class, e.Pattern)
			}
			body := strings.TrimSuffix(e.Pattern, "/")
			e.dir = body != e.Pattern
			if body == "" || strings.HasPrefix(body, "/") {
				return nil, fmt.Errorf("policy/runlater.toml: pattern %q must be relative to the project root", e.Pattern)
			}
			e.elems = strings.Split(FoldPathName(body), "/")
			for _, el := range e.elems {
				if _, err := path.Match(el, ""); err != nil || el == "" || el == "." || el == ".." {
					return nil, fmt.Errorf("policy/runlater.toml: pattern %q has a bad element %q", e.Pattern, el)
				}
			}
			out = append(out, e)
		}
		delete(file, string(class))
	}
	for k := range file {
		return nil, fmt.Errorf("policy/runlater.toml: unknown class %q (want auto, build, instructions or cd)", k)
	}
	return out, nil
}

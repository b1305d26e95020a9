package runlater

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, body := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// -include $(DEPS) is followed when the makefile assigns DEPS (:=, =,
// +=, through another variable); one it does not assign is still not told.
func TestMakefileIncludesFollowAssignedVariables(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"Makefile": "SRCS := main.c util.c\nDEPS := $(SRCS:.c=.d)\n" +
		"GEN = $(wildcard gen/*.inc)\nGEN += extra/more.inc\nALL = $(GEN)\noverride LOCAL ?= local.conf\n" +
		"-include $(DEPS)\ninclude ${ALL}\nsinclude $(LOCAL)\n-include $(UNSET)\n"})
	m := ReadMakefile(filepath.Join(root, "Makefile"))
	for _, p := range []string{"main.d", "obj/util.d", "gen/a.inc", "extra/more.inc", "local.conf"} {
		if _, ok := m.IncludesFile(filepath.Join(root, filepath.FromSlash(p))); !ok {
			t.Errorf("%s: not seen as included (%+v)", p, m.Includes)
		}
	}
	for _, p := range []string{"main.c", "gen/sub/b.inc", "more.inc"} {
		if how, ok := m.IncludesFile(filepath.Join(root, filepath.FromSlash(p))); ok {
			t.Errorf("%s: seen as included by %q", p, how)
		}
	}
}

// A recipe's $(MAKE) -C sub, make -C sub and $(MAKE) -f other.mk make
// sub/Makefile and other.mk the person's makefiles: read for their
// includes (relative to where that make runs) and named with why; an
// .envrc's MAKEFILES too. A name built from a loop variable is not
// followed, and a make that runs itself again ends.
func TestMakefilesFollowSubMakesAndMakefiles(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"Makefile": "all:\n\t$(MAKE) -C sub\n\t@cd x && make -C lib all\n\t$(MAKE) --file=build/other.rules\n" +
			"\tfor d in $(DIRS); do $(MAKE) -C $$d; done\n\t$(MAKE) -C .\n",
		"sub/Makefile":      "include sub.conf\n",
		"x/lib/GNUmakefile": "-include $(OBJS:.o=.d)\n\t$(MAKE) -C deeper -f x.mk\n",
		"x/lib/deeper/x.mk": "include deeper.conf\n",
		"build/other.rules": "include build/rules.inc\n",
		".envrc":            "export MAKEFILES=\"common.mk $PWD/tools/defs.make\"\n",
		"common.mk":         "include common.inc\n",
		"tools/defs.make":   "x:\n",
	})
	ms := ReadMakefiles(root, []string{filepath.Join(root, "Makefile")}, []string{filepath.Join(root, ".envrc")}, nil)
	why := map[string]string{}
	var includes []string
	for _, m := range ms {
		rel, _ := filepath.Rel(root, m.File)
		why[filepath.ToSlash(rel)] = m.Why
		for _, p := range []string{"sub/sub.conf", "x/lib/a.d", "x/lib/deeper/deeper.conf", "build/rules.inc", "common.inc", "sub.conf", "build/build/rules.inc"} {
			if _, ok := m.IncludesFile(filepath.Join(root, filepath.FromSlash(p))); ok {
				includes = append(includes, p)
			}
		}
	}
	for f, want := range map[string]string{
		"sub/Makefile":      "runs make on it (`$(MAKE) -C sub`)",
		"x/lib/GNUmakefile": "runs make on it (`make -C lib all`)",
		"x/lib/deeper/x.mk": "your x/lib/GNUmakefile runs make on it",
		"build/other.rules": "runs make on it (`$(MAKE) --file=build/other.rules`)",
		"common.mk":         "your .envrc sets MAKEFILES",
		"tools/defs.make":   "your .envrc sets MAKEFILES",
	} {
		if !strings.Contains(why[f], want) {
			t.Errorf("%s: why %q, want it to say %q (read: %v)", f, why[f], want, why)
		}
	}
	if got, want := strings.Join(includes, " "), "sub/sub.conf x/lib/a.d x/lib/deeper/deeper.conf build/rules.inc common.inc"; !sameWords(got, want) {
		t.Errorf("included: %q, want %q", got, want)
	}
	if w, ok := why["Makefile"]; !ok || w != "" {
		t.Errorf("the Makefile itself: read %v, why %q (want read by name, no why)", ok, w)
	}
}

func sameWords(a, b string) bool {
	x, y := strings.Fields(a), strings.Fields(b)
	if len(x) != len(y) {
		return false
	}
	seen := map[string]int{}
	for _, w := range x {
		seen[w]++
	}
	for _, w := range y {
		seen[w]--
	}
	for _, n := range seen {
		if n != 0 {
			return false
		}
	}
	return true
}

// Following is bounded: a chain of sub-makes stops maxMakeDepth deep,
// and at most maxMakefiles makefiles are read.
func TestMakefilesFollowIsBounded(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	dir := ""
	for i := range 10 {
		files[dir+"Makefile"] = "all:\n\t$(MAKE) -C d\n"
		_ = i
		dir += "d/"
	}
	var many strings.Builder
	many.WriteString("all:\n")
	for i := range 100 {
		many.WriteString("\t$(MAKE) -f m" + strings.Repeat("x", i) + ".mk\n")
		files["w/m"+strings.Repeat("x", i)+".mk"] = "x:\n"
	}
	files["w/Makefile"] = many.String()
	writeFiles(t, root, files)
	if n := len(ReadMakefiles(root, []string{filepath.Join(root, "Makefile")}, nil, nil)); n != maxMakeDepth+1 {
		t.Errorf("a chain of sub-makes: read %d makefiles, want %d", n, maxMakeDepth+1)
	}
	if n := len(ReadMakefiles(root, []string{filepath.Join(root, "w", "Makefile")}, nil, nil)); n != maxMakefiles {
		t.Errorf("a makefile naming 100: read %d makefiles, want %d", n, maxMakefiles)
	}
}

// A recipe's shell loop over folders, `for d in $(SUBDIRS); do $(MAKE)
// -C $$d; done`, is followed into each folder it names (assigned
// variables, literal names, globs), and one whose folders are known only
// when it runs ($$(ls)) into every folder right below with a makefile,
// each named with why: the loop was not followed before (ipgaps27).
func TestMakefilesFollowSubMakesInAShellLoop(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"Makefile": "SUBDIRS := lib app\nall:\n\tfor d in $(SUBDIRS); do $(MAKE) -C $$d all || exit 1; done\n" +
			"\t@for x in plug/*; do (cd $${x} && $(MAKE)); done\n",
		"lib/Makefile":      "include lib.conf\n",
		"app/GNUmakefile":   "-include rules.inc\n",
		"app/other":         "",
		"plug/one/Makefile": "include one.inc\n",
		"tools/Makefile":    "include tools.inc\n",
		"dyn/Makefile":      "all:\n\tfor m in $$(ls); do $(MAKE) -C $$m; done\n",
		"dyn/a/Makefile":    "include a.inc\n",
		"dyn/b/makefile":    "include b.inc\n",
		"dyn/c/README":      "",
	})
	ms := ReadMakefiles(root, []string{filepath.Join(root, "Makefile"), filepath.Join(root, "dyn", "Makefile")}, nil, nil)
	why := map[string]string{}
	var includes []string
	for _, m := range ms {
		rel, _ := filepath.Rel(root, m.File)
		why[filepath.ToSlash(rel)] = m.Why
		for _, p := range []string{"lib/lib.conf", "app/rules.inc", "plug/one/one.inc", "tools/tools.inc", "dyn/a/a.inc", "dyn/b/b.inc"} {
			if _, ok := m.IncludesFile(filepath.Join(root, filepath.FromSlash(p))); ok {
				includes = append(includes, p)
			}
		}
	}
	for f, want := range map[string]string{
		"lib/Makefile":      "runs make on it (`$(MAKE) -C lib all`)",
		"app/GNUmakefile":   "runs make on it (`$(MAKE) -C app all`)",
		"plug/one/Makefile": "your Makefile runs make",
		"dyn/a/Makefile":    "your dyn/Makefile runs make in folders it names only when it runs (`$(MAKE) -C $$m`), maybe this one",
		"dyn/b/makefile":    "names only when it runs",
	} {
		if !strings.Contains(why[f], want) {
			t.Errorf("%s: why %q, want it to say %q (read: %v)", f, why[f], want, why)
		}
	}
	if got, want := strings.Join(includes, " "), "lib/lib.conf app/rules.inc plug/one/one.inc dyn/a/a.inc dyn/b/b.inc"; !sameWords(got, want) {
		t.Errorf("included: %q, want %q (tools/ is in no loop)", got, want)
	}
}

package runlater

import (
	"os"
	"path/filepath"
	"testing"
)

// A makefile's include directives name the files make reads as make code
// on the person's next make: literal names, wildcards, and names built
// from a variable by their suffix (-include $(OBJS:.o=.d)); a recipe
// line's "include" is the shell's, and a bare $(DEPS) cannot be told.
func TestMakefileIncludesAreRead(t *testing.T) {
	root := t.TempDir()
	mk := filepath.Join(root, "Makefile")
	body := "include config/local.conf\n-include $(OBJS:.o=.d)\nsinclude $(wildcard rules/*.rules) \\\n  extra.make\n" +
		"include $(BUILD)/gen.inc\n-include $(DEPS)\n# include commented.conf\nall:\n\tinclude not-make.conf\n"
	if err := os.WriteFile(mk, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	m := ReadMakefile(mk)
	for _, p := range []string{"config/local.conf", "build/main.d", "rules/a.rules", "extra.make", "out/gen.inc"} {
		if _, ok := m.IncludesFile(filepath.Join(root, filepath.FromSlash(p))); !ok {
			t.Errorf("%s: not seen as included (%+v)", p, m.Includes)
		}
	}
	for _, p := range []string{"not-make.conf", "commented.conf", "src/main.c", "rules/sub/b.rules", "../x.d"} {
		if how, ok := m.IncludesFile(filepath.Join(root, filepath.FromSlash(p))); ok {
			t.Errorf("%s: seen as included by %q", p, how)
		}
	}
}

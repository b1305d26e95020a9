package placeflags

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// The person's own MAKEFILES (in the environment Sentinel was started
// with, not an .envrc's) names makefiles that every make of theirs reads
// before its own makefile: an absolute entry into the place, and a
// relative one, which make takes from wherever it runs. A coder's change
// to one is flagged at the end like a makefile; what it includes too.
// Seen failing without EnvMakefiles: none of the three was flagged (their
// names do not say makefile, and no makefile of the place includes them).
func TestThePersonsMAKEFILESAreReadAsMakefiles(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"Makefile":         "all:\n\techo hi\n",
		"tools/extra.mk":   "include tools/extra.inc\n",
		"tools/extra.inc":  "x:\n",
		"sub/Makefile":     "all:\n",
		"sub/local.rules":  "y:\n",
		"other/notread.mk": "z:\n",
	}
	var before checkpoint.Manifest
	for rel, body := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		before.Entries = append(before.Entries, checkpoint.Entry{Path: rel, Kind: checkpoint.KindFile, Mode: 0o644})
	}
	env := filepath.Join(root, "tools", "extra.mk") + " local.rules $(HOME)/x.mk"
	r := Read(root, &before, "", env)
	got := map[string]string{}
	for _, f := range r.Make([]string{"tools/extra.mk", "tools/extra.inc", "sub/local.rules", "other/notread.mk"}) {
		got[f.Path] = f.Reason
	}
	for p, want := range map[string]string{
		"tools/extra.mk":  "your MAKEFILES names it (`extra.mk`)",
		"sub/local.rules": "your MAKEFILES names it (`local.rules`)",
		"tools/extra.inc": "includes it",
	} {
		if !strings.Contains(got[p], want) {
			t.Errorf("%s: flagged %q, want %q", p, got[p], want)
		}
	}
	if w, ok := got["other/notread.mk"]; ok {
		t.Errorf("other/notread.mk flagged (%q): MAKEFILES does not name it", w)
	}
	// Without MAKEFILES in the person's environment, nothing of those.
	if fl := Read(root, &before, "", "").Make([]string{"tools/extra.mk", "sub/local.rules"}); len(fl) != 0 {
		t.Errorf("flagged without MAKEFILES: %v", fl)
	}
}

package gitdir

import (
	"os"
	"path/filepath"
	"testing"
)

// A files repository's refs are read from its files, whatever its git dir
// holds besides: a reftable/tables.list the coder writes into the git dir
// (its top level is writable in place) is nothing to git, which reads
// packed-refs, and must be nothing here. Read as the repository's refs, an
// empty stack hid a replace ref written into packed-refs, so it was never
// named nor deleted, and every ref move was seen against the coder's table.
func TestPlantedReftableHidesNoPackedRef(t *testing.T) {
	d := t.TempDir()
	gitT(t, d, "init", "-q")
	os.WriteFile(filepath.Join(d, "Makefile"), []byte("all:\n\ttrue\n"), 0o644)
	gitT(t, d, "add", "Makefile")
	gitT(t, d, "commit", "-qm", "one")
	gd := filepath.Join(d, ".git")
	l := SnapLater(gd, gd)
	blob := gitT(t, d, "rev-parse", "HEAD:Makefile")
	ev := gitT(t, d, "hash-object", "-w", "--stdin", "--path=x")
	gitT(t, d, "replace", "-f", blob, ev)
	gitT(t, d, "pack-refs", "--all")
	if err := os.MkdirAll(filepath.Join(gd, "reftable"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(gd, "reftable", "tables.list"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := gitT(t, d, "for-each-ref", "--format=%(refname)", "refs/replace/"); got != "refs/replace/"+blob {
		t.Fatalf("git does not see the packed replace ref: %q", got)
	}
	got := l.Changed()
	if len(got) != 1 || got[0].Ref != "refs/replace/"+blob || got[0].ID != ev {
		t.Errorf("the packed replace ref of a files repository with a planted reftable/tables.list is not named: %+v", got)
	}
	s, err := ReadRefs(gd, gd)
	if err != nil || s.Reftable || s.Refs["refs/heads/"+gitT(t, d, "branch", "--show-current")] == "" {
		t.Errorf("ReadRefs read the planted table: %+v, %v", s, err)
	}
}

// extensions.refStorage is read as git reads it: any case of section and
// key, a value quoted or followed by a comment, the last one set winning.
func TestRefStorageIsTheConfigs(t *testing.T) {
	for cfg, want := range map[string]string{
		"[core]\n\tbare = false\n[extensions]\n\trefStorage = reftable\n":        "reftable",
		"[Extensions]\nREFSTORAGE=\"reftable\" # git 2.45\n":                     "reftable",
		"[extensions] refstorage = reftable\n[extensions]\nrefstorage = files\n": "files",
		"[core]\n\trefStorage = reftable\n":                                      "",
		"# [extensions]\n;refstorage = reftable\n":                               "",
	} {
		if got := refStorage([]byte(cfg)); got != want {
			t.Errorf("refStorage(%q) = %q, want %q", cfg, got, want)
		}
	}
}

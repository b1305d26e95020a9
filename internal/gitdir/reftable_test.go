package gitdir

import (
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// golden is a fixture's refs.txt (testdata/reftable/make.sh): what git
// itself said the refs, HEAD and the stash's entry count were.
func golden(t *testing.T, dir string) (refs map[string]string, head string, stash int) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "refs.txt"))
	if err != nil {
		t.Fatal(err)
	}
	refs = map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		name, val, _ := strings.Cut(line, " ")
		switch name {
		case "HEAD":
			head = val
		case "stash":
			stash, _ = strconv.Atoi(val)
		default:
			refs[name] = val
		}
	}
	return refs, head, stash
}

// ReadRefs reads a reftable repository's refs as git 2.55 wrote them, as
// git itself lists them: branches, an annotated tag (two ids), a symbolic
// ref, a branch deleted in a later table, HEAD from the table (the HEAD
// file is a stub), the stash's entries from the log blocks, a replace
// ref, and 600 refs compacted into one aligned table with an index.
func TestReadRefsReftable(t *testing.T) {
	for _, name := range []string{"before", "replaced", "packed"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("testdata", "reftable", name)
			want, head, stash := golden(t, dir)
			if !IsReftable(dir) {
				t.Fatal("not taken for a reftable repository")
			}
			s, err := ReadRefs(dir, dir)
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range want {
				if s.Refs[k] != v {
					t.Errorf("%s = %q, git says %q", k, s.Refs[k], v)
				}
			}
			for k := range s.Refs {
				if _, ok := want[k]; !ok {
					t.Errorf("%s read, git lists no such ref", k)
				}
			}
			if s.Head != head || s.Stash != stash || !s.Reftable {
				t.Errorf("HEAD %q stash %d reftable %v, want %q and %d", s.Head, s.Stash, s.Reftable, head, stash)
			}
			if !maps.Equal(s.Stored, want) {
				t.Error("a reftable repository's refs are not all taken as stored (no file to move out)")
			}
			if _, ok := want["refs/heads/gone"]; ok {
				t.Error("the fixture's deleted branch is listed by git")
			}
		})
	}
}

// A replace ref made in a reftable repository is named by Later.Changed
// as a ref to delete with git (it has no file), with where it is.
func TestLaterSeesAReplaceRefInReftable(t *testing.T) {
	gd := filepath.Join(t.TempDir(), ".git")
	copyDir(t, filepath.Join("testdata", "reftable", "before"), gd)
	l := SnapLater(gd, gd)
	if got := l.Changed(); len(got) != 0 {
		t.Fatalf("changed before anything was done: %+v", got)
	}
	os.RemoveAll(filepath.Join(gd, "reftable"))
	copyDir(t, filepath.Join("testdata", "reftable", "replaced", "reftable"), filepath.Join(gd, "reftable"))
	want, _, _ := golden(t, filepath.Join("testdata", "reftable", "replaced"))
	var ref string
	for r := range want {
		if strings.HasPrefix(r, "refs/replace/") {
			ref = r
		}
	}
	got := l.Changed()
	if len(got) != 1 || got[0].Ref != ref || got[0].ID != want[ref] || got[0].Path != "" || !strings.Contains(got[0].What, "(in reftable)") {
		t.Fatalf("Changed() = %+v, want the replace ref %s → %s in reftable", got, ref, want[ref])
	}
}

// A table that is not one (cut short, a wrong magic, a name with a slash
// in tables.list) is an error, not an empty set of refs.
func TestReadRefsReftableRefusesWhatItCannotRead(t *testing.T) {
	src := filepath.Join("testdata", "reftable", "before")
	for name, spoil := range map[string]func(gd string){
		"cut":   func(gd string) { cutTables(t, gd, func(b []byte) []byte { return b[:len(b)/2] }) },
		"magic": func(gd string) { cutTables(t, gd, func(b []byte) []byte { b[0] = 'X'; return b }) },
		"slash": func(gd string) {
			os.WriteFile(filepath.Join(gd, "reftable", "tables.list"), []byte("../../x.ref\n"), 0o644)
		},
	} {
		t.Run(name, func(t *testing.T) {
			gd := filepath.Join(t.TempDir(), ".git")
			copyDir(t, src, gd)
			spoil(gd)
			if s, err := ReadRefs(gd, gd); err == nil {
				t.Errorf("read a spoilt stack without an error: %+v", s.Refs)
			}
		})
	}
}

func cutTables(t *testing.T, gd string, f func([]byte) []byte) {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(gd, "reftable", "*.ref"))
	if len(m) == 0 {
		t.Fatal("no tables")
	}
	for _, p := range m {
		b, _ := os.ReadFile(p)
		os.WriteFile(p, f(b), 0o644)
	}
}

func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
}

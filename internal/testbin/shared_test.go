package testbin

import (
	"os"
	"path/filepath"
	"testing"
)

// The build key follows what a build of the binaries reads (go list
// -deps): a source or embedded file of a package they are made of, a new
// file in one, go.mod, the flags and the packages change it; a test file,
// test data, a dot-directory, a package they do not import (a test helper)
// or a script beside them does not.
func TestBuildKeyFollowsTheSources(t *testing.T) {
	t.Setenv("GOWORK", "off")
	t.Setenv("GOFLAGS", "")
	root := t.TempDir()
	write := func(rel, body string) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkgs := []string{"./cmd/app"}
	key := func(flags ...string) string {
		t.Helper()
		k, err := buildKey(root, flags, pkgs)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	write("go.mod", "module x\n\ngo 1.21\n")
	write("cmd/app/main.go", "package main\n\nimport _ \"x/a\"\n\nfunc main() {}\n")
	write("a/a.go", "package a\n\nimport _ \"embed\"\n\n//go:embed page.html\nvar Page string\n")
	write("a/page.html", "<p>embedded</p>\n")
	write("helper/helper.go", "package helper\n")
	k0 := key()
	for _, rel := range []string{"a/a_test.go", "a/testdata/x.txt", ".git/HEAD", "a/notes.txt", "docs/measure/x.sh"} {
		write(rel, "changed\n")
		if k := key(); k != k0 {
			t.Errorf("writing %s changed the key", rel)
		}
	}
	write("helper/helper.go", "package helper\n\nvar Changed = 1\n")
	write("helper/more.go", "package helper\n")
	if k := key(); k != k0 {
		t.Error("a package the binaries do not import changed the key (a test helper's edit rebuilt them)")
	}
	if key("-tags", "sentineltest") == k0 {
		t.Error("build flags do not change the key")
	}
	pkgs = []string{"./cmd/app", "./helper"}
	if key() == k0 {
		t.Error("another package to build does not change the key")
	}
	pkgs = []string{"./cmd/app"}
	for _, c := range []struct{ rel, body string }{
		{"a/a.go", "package a\n\nimport _ \"embed\"\n\n//go:embed page.html\nvar Page string\n\nvar B = 2\n"},
		{"a/page.html", "<p>changed</p>\n"},
		{"a/new.go", "package a\n"},
		{"cmd/app/main.go", "package main\n\nimport _ \"x/a\"\nimport _ \"x/helper\"\n\nfunc main() {}\n"},
		{"helper/helper.go", "package helper\n\nvar Changed = 2\n"}, // imported now
		{"go.mod", "module x\n\ngo 1.22\n"},
	} {
		write(c.rel, c.body)
		k := key()
		if k == k0 {
			t.Errorf("writing %s did not change the key", c.rel)
		}
		k0 = k
	}
}

// A cache directory others may write to is refused: a binary planted
// there would run as the tester.
func TestCacheRootRefusesAWritableDirectory(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dir, err := cacheRoot()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if _, err := cacheRoot(); err == nil {
		t.Fatal("a world-writable cache directory was accepted")
	}
}

// The binaries are built without -race unless RaceBinaryEnv asks for it,
// and with it the build is another entry of the cache (the flags are in
// its key).
func TestRaceBinaryIsOptIn(t *testing.T) {
	t.Setenv(RaceBinaryEnv, "")
	if f := binaryFlags("-tags", "x"); len(f) != 2 {
		t.Errorf("flags without %s = %q, want only the caller's", RaceBinaryEnv, f)
	}
	t.Setenv(RaceBinaryEnv, "1")
	if f := binaryFlags(); len(f) != 1 || f[0] != "-race" {
		t.Errorf("flags with %s=1 = %q, want -race", RaceBinaryEnv, f)
	}
}

// The key is remembered per tree: a second process with the same files
// reads it (a planted memo is what it returns), a changed file anywhere is
// a new memo whose key still follows buildKey (a helper's edit: the same
// key; a source's: another), and a memo that is not a key is not trusted.
func TestMemoKeyIsRememberedPerTree(t *testing.T) {
	t.Setenv("GOWORK", "off")
	t.Setenv("GOFLAGS", "")
	root, cache := t.TempDir(), t.TempDir()
	write := func(rel, body string) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkgs := []string{"./cmd/app"}
	key := func() string {
		t.Helper()
		k, err := memoKey(cache, root, nil, pkgs)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	write("go.mod", "module x\n\ngo 1.21\n")
	write("cmd/app/main.go", "package main\n\nfunc main() {}\n")
	write("helper/helper.go", "package helper\n")
	k0 := key()
	if want, _ := buildKey(root, nil, pkgs); k0 != want {
		t.Fatalf("memoKey %s, buildKey %s", k0, want)
	}
	tree, err := treeHash(root, nil, pkgs)
	if err != nil {
		t.Fatal(err)
	}
	memo := filepath.Join(cache, "key-"+tree)
	if b, _ := os.ReadFile(memo); string(b) != k0 {
		t.Fatalf("memo holds %q, want %s", b, k0)
	}
	const planted = "0123456789abcdef01234567"
	os.WriteFile(memo, []byte(planted), 0o644)
	if k := key(); k != planted {
		t.Errorf("the same tree gave %s, not its memo %s", k, planted)
	}
	os.WriteFile(memo, []byte("not a key"), 0o644)
	if k := key(); k != k0 {
		t.Errorf("a memo that is not a key gave %q", k)
	}
	write("helper/helper.go", "package helper\n\nvar Changed = 1\n")
	if k := key(); k != k0 {
		t.Errorf("a helper's edit gave another build key %s (want %s)", k, k0)
	}
	write("cmd/app/main.go", "package main\n\nfunc main() { println() }\n")
	if k := key(); k == k0 {
		t.Error("a source's edit kept the build key")
	}
}

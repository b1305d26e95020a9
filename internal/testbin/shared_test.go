package testbin

import (
	"os"
	"path/filepath"
	"testing"
)

// The build key follows what a build reads: a source or embedded file
// changes it; a test file, test data or a dot-directory does not.
func TestBuildKeyFollowsTheSources(t *testing.T) {
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
	key := func(flags ...string) string {
		t.Helper()
		k, err := buildKey(root, flags)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	write("go.mod", "module x\n")
	write("a/a.go", "package a\n")
	write("a/page.html", "<p>embedded</p>\n")
	k0 := key()
	for _, rel := range []string{"a/a_test.go", "a/testdata/x.txt", ".git/HEAD"} {
		write(rel, "changed\n")
		if k := key(); k != k0 {
			t.Errorf("writing %s changed the key", rel)
		}
	}
	if key("-tags", "sentineltest") == k0 {
		t.Error("build flags do not change the key")
	}
	for _, rel := range []string{"a/a.go", "a/page.html", "go.mod", "b/new.go"} {
		write(rel, "package changed\n")
		k := key()
		if k == k0 {
			t.Errorf("writing %s did not change the key", rel)
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

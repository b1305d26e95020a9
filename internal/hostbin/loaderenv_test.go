package hostbin

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// Loader entries that name the working directory are dropped; absolute
// ones, and bare library names in LD_PRELOAD, are kept.
func TestLoaderEntriesRelativeToTheWorkingDirAreDropped(t *testing.T) {
	for _, c := range []struct{ name, v, want string }{
		{"LD_LIBRARY_PATH", ":/usr/local/cuda/lib64", "/usr/local/cuda/lib64"},
		{"LD_LIBRARY_PATH", "/a::/b:", "/a:/b"},
		{"LD_LIBRARY_PATH", "/a;.;build/lib", "/a"},
		{"LD_PRELOAD", "./x.so libfoo.so /opt/y.so lib/z.so", "libfoo.so:/opt/y.so"},
		{"GCONV_PATH", ".", ""},
		{"DYLD_INSERT_LIBRARIES", "x/y.dylib:/z.dylib", "/z.dylib"},
	} {
		t.Setenv(c.name, c.v)
		KeepLoaderOutOfTheWorkingDir()
		got, ok := os.LookupEnv(c.name)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("%s=%q: now %q (set: %v), want %q", c.name, c.v, got, ok, c.want)
		}
	}
}

// A host git started in a directory holding a library named like one it
// links (what a coder can leave in the place) loads the system's, though
// the person's LD_LIBRARY_PATH has an empty entry. Without the cleaning,
// git fails to start: it loaded the planted file ("file too short"); with
// a real library there, its constructor would run as the person.
func TestHostGitLoadsNoLibraryFromItsWorkingDir(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("glibc's loader")
	}
	git, err := Find("git")
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	for _, lib := range []string{"libz.so.1", "libpcre2-8.so.0", "libpcre2-8.so", "libz.so"} {
		if err := os.WriteFile(filepath.Join(dir, lib), []byte("planted"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("LD_LIBRARY_PATH", ":/nonexistent")
	t.Setenv("LD_PRELOAD", "")
	os.Unsetenv("LD_PRELOAD")
	KeepLoaderOutOfTheWorkingDir()
	cmd := exec.Command(git, "--version")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git --version in a dir with planted libraries: %v: %s", err, out)
	}
}

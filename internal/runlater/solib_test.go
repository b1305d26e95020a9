package runlater

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// A file named as a system library is told from a build's own output,
// and the line says whether the person's LD_LIBRARY_PATH names the
// working directory (an empty entry).
func TestASystemLibrarysNameIsToldFromABuildsOutput(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the system libraries looked for are Linux's")
	}
	for _, n := range []string{"libc.so.6", "libm.so.6"} {
		if !IsSystemLibraryName(n) {
			t.Errorf("%s is not taken for a system library's name", n)
		}
	}
	for _, n := range []string{"libsentinel-build-output.so", "libsentinel-build-output.so.1", "notes.so.txt", ".so", "libc.so.6.orig.c", "main.go"} {
		if IsSystemLibraryName(n) {
			t.Errorf("%s is taken for a system library's name", n)
		}
	}
	t.Setenv("LD_LIBRARY_PATH", ":/opt/none")
	if w := LibraryWhy("libc.so.6"); !strings.Contains(w, "runs code later when LD_LIBRARY_PATH holds the current directory") || !strings.Contains(w, "yours does now") {
		t.Errorf("with an empty entry: %q", w)
	}
	t.Setenv("LD_LIBRARY_PATH", "/opt/none")
	if w := LibraryWhy("libc.so.6"); !strings.Contains(w, "yours does not now") {
		t.Errorf("without one: %q", w)
	}
	if w := LibraryWhy("libsentinel-build-output.so"); w != "" {
		t.Errorf("a build's own library is flagged: %q", w)
	}

	root := t.TempDir()
	since := time.Now().Add(-time.Minute)
	for _, n := range []string{"libc.so.6", "out/libsentinel-build-output.so", ".git/libz.so.1"} {
		p := filepath.Join(root, n)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("\x7fELF"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	got := NewLibraries([]string{root}, since, nil)
	if len(got) != 1 || got[0] != filepath.Join(root, "libc.so.6") {
		t.Errorf("NewLibraries = %q, want only libc.so.6", got)
	}
	if got := NewLibraries([]string{root}, time.Now().Add(time.Hour), nil); len(got) != 0 {
		t.Errorf("files older than since are new: %q", got)
	}
}

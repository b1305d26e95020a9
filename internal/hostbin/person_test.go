//go:build unix

package hostbin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeProgram(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// The person's program is the one from their own PATH as Sentinel started:
// a copy of the same name earlier on PATH inside the place a coder writes
// (the project's node_modules/.bin, a direnv bin), behind a relative entry,
// or planted after the pin is never the answer.
func TestPersonNeverTakesAProgramACoderCanPlant(t *testing.T) {
	tmp, _ := filepath.EvalSymlinks(t.TempDir())
	project := filepath.Join(tmp, "project")
	own := filepath.Join(tmp, "own", "bin")
	later := filepath.Join(tmp, "later")
	writeProgram(t, filepath.Join(project, "node_modules", ".bin", "go"))
	writeProgram(t, filepath.Join(project, "go"))
	writeProgram(t, filepath.Join(own, "go"))
	if err := os.MkdirAll(later, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(project)
	path := strings.Join([]string{".", filepath.Join(project, "node_modules", ".bin"), later, own}, ":")
	defer SetPersonPATHForTest(path)()

	PinPerson([]string{project}, "go")
	writeProgram(t, filepath.Join(later, "go")) // after the pin, before own on PATH
	t.Setenv("PATH", project+":"+later)         // PATH as it is later is never read
	got, err := Person("go")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(own, "go"); got != want {
		t.Errorf("Person(go) = %s, want the person's own %s", got, want)
	}
	for _, d := range filepath.SplitList(PersonPATH()) {
		if !filepath.IsAbs(d) || strings.HasPrefix(d, project) {
			t.Errorf("PersonPATH keeps %q", d)
		}
	}
}

// A copy another user can write is refused, and the error says where
// Sentinel looked.
func TestPersonRefusesAProgramOthersCanWrite(t *testing.T) {
	tmp, _ := filepath.EvalSymlinks(t.TempDir())
	dir := filepath.Join(tmp, "shared")
	writeProgram(t, filepath.Join(dir, "notify-send"))
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	defer SetPersonPATHForTest(dir)()
	if got, err := Person("notify-send"); err == nil {
		t.Fatalf("Person took %s from a directory anyone can write", got)
	} else if !strings.Contains(err.Error(), "writable by others") {
		t.Errorf("the error does not say why: %v", err)
	}
}

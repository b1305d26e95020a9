package archdoc

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxFileLines bounds every non-test Go file of the module: a file that
// grows past it holds more than one thing, and is split by what it holds.
const maxFileLines = 500

// No production Go file anywhere in the module is longer than
// maxFileLines (runner's own test also bounds its test files).
func TestNoProductionFileIsTooLong(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		n++
		if lines := bytes.Count(b, []byte("\n")); lines > maxFileLines {
			rel, _ := filepath.Rel(root, path)
			t.Errorf("%s has %d lines, more than %d: split it by what it holds", rel, lines, maxFileLines)
		}
		return nil
	})
	if err != nil || n < 300 {
		t.Fatalf("walked %d production files: %v", n, err)
	}
}

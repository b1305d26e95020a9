package claude

import (
	"io/fs"
	"path/filepath"
	"testing"
)

func logTree(t *testing.T, root string) {
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(root, p)
		t.Logf("HOME/%s", rel)
		return nil
	})
}

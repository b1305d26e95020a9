package inplace

import (
	"os"
	"path/filepath"
	"testing"
)

// cacheEntries counts the files of a Go build cache.
func cacheEntries(t *testing.T, cache string) int {
	t.Helper()
	n := 0
	filepath.WalkDir(cache, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return n
}

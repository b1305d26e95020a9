package testbin

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// memoKey is buildKey remembered in cache under a hash of every non-test
// file of the module (treeHash), so that of the many test processes of one
// `go test ./...` only the first pays for `go list -deps` (about 0.5 CPU-s);
// the others hash the tree (about 0.05) and read the key. Any change of a
// file in the tree is a new memo entry and a new `go list`, so a memo is
// never older than the sources; a change outside the binaries' packages
// still gives the same build key (buildKey), and so no new build.
func memoKey(cache, root string, flags, pkgs []string) (string, error) {
	tree, err := treeHash(root, flags, pkgs)
	if err != nil {
		return "", err
	}
	memo := filepath.Join(cache, "key-"+tree)
	if b, err := os.ReadFile(memo); err == nil && validKey(string(b)) {
		now := time.Now()
		_ = os.Chtimes(memo, now, now) // in use: not pruned
		return string(b), nil
	}
	key, err := buildKey(root, flags, pkgs)
	if err != nil {
		return "", err
	}
	tmp := fmt.Sprintf("%s.%d.tmp", memo, os.Getpid())
	if os.WriteFile(tmp, []byte(key), 0o644) == nil {
		_ = os.Rename(tmp, memo)
	}
	_ = os.Remove(tmp)
	return key, nil
}

// validKey says s is a key buildKey makes: 24 hex digits.
func validKey(s string) bool {
	if len(s) != 24 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// treeHash hashes every file under root except tests, test data and
// dot-directories, with the Go toolchain's identity and settings, the
// flags and the packages.
func treeHash(root string, flags, pkgs []string) (string, error) {
	h := sha256.New()
	env, err := exec.Command("go", "env", "GOVERSION", "GOROOT", "GOFLAGS", "GOEXPERIMENT", "CGO_ENABLED", "GOOS", "GOARCH", "GOAMD64", "CC", "GOWORK").Output()
	if err != nil {
		return "", fmt.Errorf("go env: %w", err)
	}
	fmt.Fprintf(h, "tree\x00env\x00%s\x00flags\x00%q\x00pkgs\x00%q\x00", env, flags, pkgs)
	var files []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && !strings.HasSuffix(name, "_test.go") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Strings(files)
	for _, p := range files {
		rel, _ := filepath.Rel(root, p)
		if err := hashFile(h, rel, p); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:32], nil
}

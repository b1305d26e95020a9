package testbin

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/internal/filelock"
)

// The binaries are built once per content, not once per test process: `go
// test ./...` runs many packages' tests at once, and each used to build and
// link its own 100 MB sentinel. The first process to need a build takes a
// lock in a cache directory of this user's, builds into a directory named
// by a hash of everything the build reads (the module's non-test sources,
// go.mod, go.sum, the Go toolchain and the flags), and the others wait on
// the lock and reuse it.

// cacheMaxAge is how long an unused build stays in the cache: longer than
// any test process lives (CI gives a whole run 90 minutes; a reuse touches
// the build), and short because every edit of the sources is a new build
// of about 35 MB: at 24 hours, seven people's edits kept 12 GB here and
// filled the disk.
const cacheMaxAge = 2 * time.Hour

// cacheRoot is the user's cache directory for built binaries: in the temp
// dir (world-readable, so a test may re-run a binary as another user), and
// refused when someone else owns it or may write to it.
func cacheRoot() (string, error) {
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("sentinel-testbin-%d", os.Geteuid()))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() || fi.Mode().Perm()&0o022 != 0 || !ownedByMe(fi) {
		return "", fmt.Errorf("the test binary cache %s is not a directory only this user may write: remove it", dir)
	}
	return dir, nil
}

// sharedBuild returns the directory holding sentinel (and, with helper,
// sentinel-helper) built with flags, building them if no other process
// has for this content.
func sharedBuild(helper bool, flags ...string) (string, error) {
	root, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	pkgs := []string{"./cmd/sentinel"}
	if helper {
		pkgs = append(pkgs, "./cmd/sentinel-helper")
	}
	key, err := buildKey(root, append(append([]string(nil), flags...), pkgs...))
	if err != nil {
		return "", err
	}
	cache, err := cacheRoot()
	if err != nil {
		return "", err
	}
	lf, err := os.OpenFile(filepath.Join(cache, key+".lock"), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return "", err
	}
	defer lf.Close()
	if err := filelock.Lock(lf); err != nil {
		return "", err
	}
	defer filelock.Unlock(lf)
	dir := filepath.Join(cache, key)
	done := filepath.Join(dir, ".built")
	if _, err := os.Stat(done); err == nil {
		now := time.Now()
		_ = os.Chtimes(dir, now, now) // in use: not pruned
		return dir, nil
	}
	_ = os.RemoveAll(dir) // a build that died half-way
	tmp := dir + ".tmp"
	_ = os.RemoveAll(tmp)
	if err := os.Mkdir(tmp, 0o755); err != nil {
		return "", err
	}
	args := append(append(append([]string{"build"}, flags...), "-o", tmp), pkgs...)
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		_ = os.RemoveAll(tmp)
		return "", fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, b)
	}
	// The same sentinel alone in a directory, for tests that must not
	// find the helper beside it.
	if err := os.Mkdir(filepath.Join(tmp, "bare"), 0o755); err != nil {
		return "", err
	}
	if err := os.Link(filepath.Join(tmp, "sentinel"), filepath.Join(tmp, "bare", "sentinel")); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(tmp, ".built"), nil, 0o644); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		return "", err
	}
	prune(cache, key)
	return dir, nil
}

// prune removes builds other than keep that no process has used for
// cacheMaxAge, skipping any whose lock another process holds.
func prune(cache, keep string) {
	ents, _ := os.ReadDir(cache)
	for _, e := range ents {
		name := e.Name()
		if !e.IsDir() || name == keep || strings.HasSuffix(name, ".tmp") {
			continue
		}
		fi, err := e.Info()
		if err != nil || time.Since(fi.ModTime()) < cacheMaxAge {
			continue
		}
		lf, err := os.OpenFile(filepath.Join(cache, name+".lock"), os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			continue
		}
		if filelock.TryLock(lf) == nil {
			_ = os.RemoveAll(filepath.Join(cache, name))
			_ = os.Remove(lf.Name())
			_ = filelock.Unlock(lf)
		}
		lf.Close()
	}
}

// buildKey hashes what a build of the module's commands reads: every
// file under root except tests, test data and dot-directories, the Go
// toolchain's identity and settings, and the build flags.
func buildKey(root string, flags []string) (string, error) {
	h := sha256.New()
	env, err := exec.Command("go", "env", "GOVERSION", "GOROOT", "GOFLAGS", "GOEXPERIMENT", "CGO_ENABLED", "GOOS", "GOARCH", "GOAMD64", "CC").Output()
	if err != nil {
		return "", fmt.Errorf("go env: %w", err)
	}
	fmt.Fprintf(h, "env\x00%s\x00flags\x00%q\x00", env, flags)
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
	return hex.EncodeToString(h.Sum(nil))[:24], nil
}

// hashFile adds a file's name and content to h; a file over 16 MB (a
// stray binary, never a source) adds its size and time instead.
func hashFile(h io.Writer, rel, p string) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if fi.Size() > 16<<20 {
		fmt.Fprintf(h, "%s\x00big %d %d\x00", rel, fi.Size(), fi.ModTime().UnixNano())
		return nil
	}
	fmt.Fprintf(h, "%s\x00%d\x00", rel, fi.Size())
	_, err = io.Copy(h, f)
	return err
}

package testbin

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/internal/filelock"
)

// The binaries are built once per content, not once per test process: `go
// test ./...` runs many packages' tests at once, and each used to build and
// link its own 100 MB sentinel. The first process to need a build takes a
// lock in a cache directory of this user's, builds into a directory named
// by a hash of everything the build reads (buildKey: the sources of the
// packages the binaries are made of, go.mod, go.sum, the Go toolchain and
// the flags), and the others wait on the lock and reuse it.

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
	cache, err := cacheRoot()
	if err != nil {
		return "", err
	}
	key, err := memoKey(cache, root, flags, pkgs)
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
// cacheMaxAge, skipping any whose lock another process holds, and key
// memos (memoKey) as old.
func prune(cache, keep string) {
	ents, _ := os.ReadDir(cache)
	for _, e := range ents {
		name := e.Name()
		if !e.IsDir() && strings.HasPrefix(name, "key-") {
			if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > cacheMaxAge {
				_ = os.Remove(filepath.Join(cache, name)) // a memo (memoKey) no process used
			}
			continue
		}
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

// buildKey hashes what a build of pkgs with flags reads, as `go list -deps`
// (given the same flags, so -tags and -race pick the same files) names it:
// for each package of this module (or replaced by a local directory) the
// files it compiles and embeds; for each other module its path and
// version (go.sum pins their content); go.mod, go.sum and go.work; the Go
// toolchain's identity and settings; and the flags. A change anywhere else
// (a test, a test helper package such as cmd/sentinel/internal/e2etest, a
// script under docs/) is not in the binary and no longer rebuilds it.
func buildKey(root string, flags, pkgs []string) (string, error) {
	h := sha256.New()
	env, err := exec.Command("go", "env", "GOVERSION", "GOROOT", "GOFLAGS", "GOEXPERIMENT", "CGO_ENABLED", "GOOS", "GOARCH", "GOAMD64", "CC").Output()
	if err != nil {
		return "", fmt.Errorf("go env: %w", err)
	}
	fmt.Fprintf(h, "env\x00%s\x00flags\x00%q\x00pkgs\x00%q\x00", env, flags, pkgs)
	files, mods, err := buildInputs(root, flags, pkgs)
	if err != nil {
		return "", err
	}
	for _, f := range []string{"go.mod", "go.sum", "go.work", "go.work.sum"} {
		if _, err := os.Stat(filepath.Join(root, f)); err == nil {
			files = append(files, filepath.Join(root, f))
		}
	}
	sort.Strings(files)
	files = slices.Compact(files)
	for _, p := range files {
		rel, err := filepath.Rel(root, p)
		if err != nil {
			rel = p
		}
		if err := hashFile(h, rel, p); err != nil {
			return "", err
		}
	}
	sort.Strings(mods)
	fmt.Fprintf(h, "modules\x00%q\x00", slices.Compact(mods))
	return hex.EncodeToString(h.Sum(nil))[:24], nil
}

// listFormat prints, for each package a build of the listed ones compiles,
// a line "M <module>@<version>" for a package of a module from the module
// cache, or "F <dir>" and then the package's Go, cgo, C, C++, assembly,
// header, syso and embedded files, NUL-separated. Standard packages are
// covered by GOROOT and GOVERSION in the key.
const listFormat = `{{if not .Standard}}{{if and .Module (not .Module.Main) (not .Module.Replace) .Module.Version}}M {{.Module.Path}}@{{.Module.Version}}` +
	`{{else if and .Module .Module.Replace .Module.Replace.Version}}M {{.Module.Path}}=>{{.Module.Replace.Path}}@{{.Module.Replace.Version}}` +
	`{{else}}F {{.Dir}}{{range .GoFiles}}{{"\x00"}}{{.}}{{end}}{{range .CgoFiles}}{{"\x00"}}{{.}}{{end}}{{range .CFiles}}{{"\x00"}}{{.}}{{end}}` +
	`{{range .CXXFiles}}{{"\x00"}}{{.}}{{end}}{{range .SFiles}}{{"\x00"}}{{.}}{{end}}{{range .HFiles}}{{"\x00"}}{{.}}{{end}}` +
	`{{range .SysoFiles}}{{"\x00"}}{{.}}{{end}}{{range .EmbedFiles}}{{"\x00"}}{{.}}{{end}}{{end}}` + "\n{{end}}"

// buildInputs are the files (absolute) and the modules (path@version) a
// build of pkgs with flags reads, from `go list -deps`.
func buildInputs(root string, flags, pkgs []string) (files, mods []string, err error) {
	args := append(append(append([]string{"list", "-e", "-deps", "-f", listFormat}, flags...), "--"), pkgs...)
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, nil, fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	for _, line := range strings.Split(string(out), "\n") {
		switch {
		case strings.HasPrefix(line, "M "):
			mods = append(mods, line[2:])
		case strings.HasPrefix(line, "F "):
			parts := strings.Split(line[2:], "\x00")
			for _, f := range parts[1:] {
				files = append(files, filepath.Join(parts[0], f))
			}
		}
	}
	return files, mods, nil
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

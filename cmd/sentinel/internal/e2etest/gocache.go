package e2etest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/filelock"
	"github.com/sentinelhq/sentinel/sandbox"
)

// A test that gives a coder a fresh home gives it an empty Go build cache,
// and its first `go test` compiles the standard library: a minute of CPU,
// several at load. Which is not what such a test checks. SeedGoCache fills
// a Go build cache with the compiled standard library from one warm cache
// per user and Go version on this machine, built once (under a lock) by the
// first test process that asks and shared by all the others: the test
// still compiles, links, tests and caches its project's own code.

// GoCacheProgArg is runner.GoCacheProgArg, written out: e2etest does not
// import runner for one string, so the end-to-end packages that use none of
// runner's code (codex, hostile, runs, scripts, tmux) link about 70
// packages fewer into their -race test binaries.
// e2e/inplace's TestE2ETestNamesTheGoCacheProgArgumentAsRunnerDoes keeps it
// equal.
const GoCacheProgArg = "__sentinel-go-cache-prog"

// warmGoModule is the module whose build fills the warm cache: the
// standard packages small projects and their tests use (those of the
// verification seed, runner/verify_gocache.go), built, tested and vetted.
var warmGoModule = map[string]string{
	"go.mod": "module sentinel.invalid/warm\n\ngo 1.21\n",
	"warm.go": `package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
)

var _ = []any{bufio.NewReader, bytes.NewReader, context.Background, json.Marshal, errors.New,
	io.EOF, math.Abs, http.NewRequest, os.Getenv, exec.Command, filepath.Join, regexp.MustCompile,
	sort.Strings, strconv.Itoa, strings.Fields, sync.NewCond, time.Now, unicode.IsUpper}

func main() { fmt.Println() }
`,
	"warm_test.go": `package main

import (
	"net/http/httptest"
	"testing"
)

func TestWarm(t *testing.T) { _ = httptest.NewRecorder() }
`,
}

// SeedGoCache puts the warm cache's entries into the Go build cache dst
// (made 0700 when missing). They are copies: what runs on dst writes it,
// and must not reach the cache every other test copies from. Without a go
// on PATH it does nothing (the test's go then compiles everything itself).
func SeedGoCache(t *testing.T, dst string) {
	t.Helper()
	warm, ok := warmGoCache(t)
	if !ok {
		return
	}
	if err := os.MkdirAll(dst, 0o700); err != nil {
		t.Fatal(err)
	}
	err := filepath.WalkDir(warm, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(warm, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o700)
		}
		return copyFile(p, filepath.Join(dst, rel))
	})
	if err != nil {
		t.Fatalf("seed the Go build cache %s: %v", dst, err)
	}
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if os.IsExist(err) {
		return nil // the test's own go wrote it first
	}
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// ProjectGoCache is the Go build cache Sentinel gives the coder in project
// (sandbox.ProjectCacheDir) when the person's cache home is cacheHome.
func ProjectGoCache(t *testing.T, cacheHome, project string) string {
	t.Helper()
	root, err := sandbox.ProjectCacheDirIn(cacheHome, project)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range sandbox.BuildCacheEnv(root) {
		if c.Env == "GOCACHE" {
			return c.Dir
		}
	}
	t.Fatal("sandbox.BuildCacheEnv names no GOCACHE")
	return ""
}

// warmGoCache is the shared warm cache, built when this is the first ask
// on this machine for this user and Go: under os.TempDir(), keyed by the
// go command's version and GOROOT, filled from the developer's own build
// cache through Sentinel's cache program where that holds the packages (a
// fresh clone's `go test` has just compiled most of them), compiled where
// it does not.
func warmGoCache(t *testing.T) (string, bool) {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		return "", false
	}
	id, err := exec.Command(goBin, "env", "GOVERSION", "GOROOT", "GOOS", "GOARCH", "CGO_ENABLED").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	sum := sha256.Sum256(id)
	root := filepath.Join(os.TempDir(), fmt.Sprintf("sentinel-test-gocache-%d", os.Getuid()), hex.EncodeToString(sum[:8]))
	cache, ready := filepath.Join(root, "cache"), filepath.Join(root, "ready")
	if _, err := os.Stat(ready); err == nil {
		return cache, true
	}
	if err := os.MkdirAll(root, 0o700); err != nil {
		t.Fatal(err)
	}
	lock, err := os.OpenFile(filepath.Join(root, "lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := filelock.Lock(lock); err != nil {
		t.Fatal(err)
	}
	defer filelock.Unlock(lock)
	if _, err := os.Stat(ready); err == nil {
		return cache, true // another process built it while this one waited
	}
	// A build that died half-way left entries go may not trust: start over.
	if err := os.RemoveAll(cache); err != nil {
		t.Fatal(err)
	}
	mod := filepath.Join(root, "module")
	for name, body := range warmGoModule {
		WriteFile(t, filepath.Join(mod, name), body)
	}
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOTOOLCHAIN=local", "GOCACHE="+cache)
	if out, err := exec.Command(goBin, "env", "GOCACHE").Output(); err == nil && Bin != "" {
		if host := strings.TrimSpace(string(out)); filepath.IsAbs(host) {
			env = append(env, "GOCACHEPROG="+Bin+" "+GoCacheProgArg+" "+host+" "+cache)
		}
	}
	for _, args := range [][]string{{"test", "-count=1", "./..."}, {"vet", "./..."}, {"build", "-o", os.DevNull, "."}} {
		cmd := exec.Command(goBin, args...)
		cmd.Dir, cmd.Env = mod, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("build the shared warm Go cache (go %s): %v\n%s", args[0], err, out)
		}
	}
	WriteFile(t, ready, "")
	return cache, true
}

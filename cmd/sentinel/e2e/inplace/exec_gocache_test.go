package inplace

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/runner"
)

// execGoCache is where exec in project keeps its Go build cache under the
// cache home xdg (sandbox.ProjectCacheDir: keyed by the project's real path).
func execGoCache(t *testing.T, xdg, project string) string {
	t.Helper()
	real, err := filepath.EvalSymlinks(project)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(real))
	return filepath.Join(xdg, "sentinel", "projects", hex.EncodeToString(sum[:8]), "go-build")
}

// seedStdCache puts the compiled standard packages a small module using
// fmt and testing needs into cache — taken from the developer's own Go
// build cache through Sentinel's cache program, compiled only when that
// cache lacks them — so that exec then compiles the project, not the
// standard library (minutes at load). Nothing of the project itself is in
// it: exec still compiles, links, tests and caches the project's code.
func seedStdCache(t *testing.T, goBin, cache string) {
	t.Helper()
	out, err := exec.Command(goBin, "env", "GOCACHE").Output()
	host := strings.TrimSpace(string(out))
	if err != nil || !filepath.IsAbs(host) {
		t.Logf("no host Go build cache (%v): exec compiles the standard library itself", err)
		return
	}
	if err := os.MkdirAll(cache, 0o700); err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	e2etest.WriteFile(t, filepath.Join(mod, "go.mod"), "module example.com/warm\n\ngo 1.21\n")
	e2etest.WriteFile(t, filepath.Join(mod, "warm.go"), "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println() }\n")
	e2etest.WriteFile(t, filepath.Join(mod, "warm_test.go"), "package main\n\nimport \"testing\"\n\nfunc TestW(t *testing.T) {}\n")
	cmd := exec.Command("sh", "-c", goBin+" test ./... && "+goBin+" build -o warm .")
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "GOCACHEPROG="+e2etest.Bin+" "+runner.GoCacheProgArg+" "+host+" "+cache)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("seed the project's Go build cache: %v\n%s", err, b)
	}
}

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

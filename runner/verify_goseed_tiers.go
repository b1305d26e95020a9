package runner

import (
	"context"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
)

// Two seeds, smallest first.
//
// The full seed's module imports net/http and more: building it works out
// the compiled forms and both sets of vet facts (go test's analyzers and go
// vet's) for about 250 standard packages — 47 s of CPU measured, five
// minutes at load 20 — and the first verification on a machine waited for
// all of it, although a small project's tests need a quarter of it. So a
// core seed (the testing package's closure and the packages most small
// projects use) is built first, in about half the CPU, and the full one
// from it only when a run's project needs more than the core holds (a
// small project's runs never pay for it, not even in the background). A
// verification whose project imports only standard packages the
// core seed holds (read from the import lines of its .go files, parsed here:
// no go command runs on the project outside the sandbox) takes the core seed
// as soon as it is ready; any other (a third-party or cgo import, a vendor
// directory, more files than are worth reading) waits for the full one.
// Either seed is Sentinel's own, signed and copied exactly as before: which
// one a verification gets changes its speed, never what it may trust.

// seedTier is one seed: its module, and the name its directory ends in
// ("" for the full seed, whose directory keeps the name it always had).
type seedTier struct {
	name  string
	files map[string]string
}

// seedTiers are built in this order; the last is the full seed.
var seedTiers = []seedTier{{name: "core", files: coreSeedGoFiles}, {name: "", files: seedGoFiles}}

// coreSeedGoFiles is the core seed's module.
var coreSeedGoFiles = map[string]string{
	"go.mod": "module sentinel.invalid/verifyseedcore\n\ngo 1.21\n",
	"core.go": `package verifyseedcore

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
)

var _ = []any{bufio.NewReader, bytes.NewReader, context.Background, json.Marshal, errors.New,
	fmt.Sprint, io.EOF, math.Abs, os.Getenv, filepath.Join, sort.Strings, strconv.Itoa,
	strings.Fields, sync.NewCond, time.Now, unicode.IsUpper}
`,
	"core_test.go": `package verifyseedcore

import "testing"

func TestSeed(t *testing.T) {}
`,
}

// seedPackages lists the standard packages the seed module at mod and its
// tests depend on: Sentinel's own module, listed by the person's go.
func seedPackages(ctx context.Context, goBin, mod string, env []string) ([]string, error) {
	cmd := seedGoCmd(ctx, goBin, "list", "-deps", "-test", "-f", "{{if .Standard}}{{.ImportPath}}{{end}}", "./...")
	cmd.Dir, cmd.Env = mod, env
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("list the Go cache seed's packages: %w", err)
	}
	pkgs := strings.Fields(string(out))
	slices.Sort(pkgs)
	return slices.Compact(pkgs), nil
}

// seedList is what listing the seed's packages found.
type seedList struct {
	pkgs []string
	err  error
}

// listSeedPackages lists the seed module's packages (seedPackages) in the
// background, with cache as the go command's build cache in env; the
// result comes on the channel returned.
func listSeedPackages(ctx context.Context, goBin, mod, cache string, env []string) <-chan seedList {
	listEnv := append([]string{}, env...)
	for i, kv := range listEnv {
		if strings.HasPrefix(kv, "GOCACHE=") {
			listEnv[i] = "GOCACHE=" + cache
		}
	}
	c := make(chan seedList, 1)
	go func() {
		pkgs, err := seedPackagesFn(ctx, goBin, mod, listEnv)
		c <- seedList{pkgs, err}
	}()
	return c
}

// seedPackagesFn is seedPackages; a test watches when it runs.
var seedPackagesFn = seedPackages

// holds says whether a seed holds everything a project that imports need
// builds from the standard library: need is known (not nil) and every
// package in it is one of the seed's (whose list is closed under
// dependencies, so theirs are too).
func (m seedManifest) holds(need []string) bool {
	if need == nil || len(m.Packages) == 0 {
		return false
	}
	for _, p := range need {
		if _, found := slices.BinarySearch(m.Packages, p); !found {
			return false
		}
	}
	return true
}

// maxImportFiles bounds the .go files read for their imports; a bigger
// project waits for the full seed.
const maxImportFiles = 2000

// stdImports is the standard packages the Go files under dir import
// (tests included), or nil when that cannot be told: a file that does not
// parse, a cgo, vendored or third-party import (whose own imports are not
// read), or too many files. Only import lines are parsed; nothing runs.
func stdImports(dir string) []string {
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return nil
	}
	self := modfile.ModulePath(mod)
	if self == "" {
		return nil
	}
	seen := map[string]bool{}
	files := 0
	known := true
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != dir && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata") {
				return filepath.SkipDir
			}
			if name == "vendor" {
				known = false
				return filepath.SkipAll
			}
			return nil
		}
		if !d.Type().IsRegular() || !strings.HasSuffix(name, ".go") || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
			return nil
		}
		if files++; files > maxImportFiles {
			known = false
			return filepath.SkipAll
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			known = false
			return filepath.SkipAll
		}
		for _, im := range f.Imports {
			path := strings.Trim(im.Path.Value, "`\"")
			switch {
			case path == self || strings.HasPrefix(path, self+"/"):
				// the project's own: its files are read here too
			case path == "C" || strings.Contains(strings.Split(path, "/")[0], "."):
				known = false
				return filepath.SkipAll
			default:
				seen[path] = true
			}
		}
		return nil
	})
	if err != nil || !known {
		return nil
	}
	need := make([]string, 0, len(seen))
	for p := range seen {
		need = append(need, p)
	}
	slices.Sort(need)
	return need
}

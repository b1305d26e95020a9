package crossbuild

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	// testdata/typecheck's: go mod tidy does not look in testdata, and
	// would otherwise drop what the test builds it with from go.mod.
	_ "golang.org/x/tools/go/packages"
)

// target is a platform besides Linux that Sentinel must build for. When
// like is set, the target is checked only where it differs from that one:
// its packages whose files (Go, test, assembly, embedded) are the same as
// like's were already checked there.
type target struct{ goos, goarch, like string }

var targets = []target{
	{goos: "darwin", goarch: "arm64"},
	{goos: "darwin", goarch: "amd64", like: "darwin/arm64"},
	{goos: "windows", goarch: "amd64"},
}

// TestModuleBuildsForEveryTarget type-checks, for each target one after
// another, every package of the module with its tests, and every package
// they import (the standard library and the dependencies included), from
// source, as the compiler's front end does for that GOOS and GOARCH: a
// Linux-only call in a shared file, a file whose build constraint leaves
// a name undefined on one platform, an unused import on one, all fail
// here. Then `go list -export`, which compiles as `go build` does, on only
// the packages holding assembly, which no type-checker reads. It links
// nothing (see below).
//
// It used to run `go vet` per target, which needs every imported
// package's compiled export data and so compiled the standard library and
// every dependency for each target: about 70 s of CPU a target on a cold
// cache, the most of any single test in the suite, where type-checking the
// same packages from source costs about a quarter of that. What vet's
// analyzers check beyond the types is platform-independent in all but
// the OS-specific files, and every change's `GOOS=windows go vet ./...`
// and `GOOS=darwin go vet ./...` (PREAMBLE) still vets those.
//
// A link can fail only on what this module does not have (cgo,
// //go:linkname, assembly calling outside its package; the one assembly
// file, sandbox/internal/escapeprobe, is in no command), so nothing is
// linked. darwin/amd64 is checked only in the packages whose files differ
// from darwin/arm64's (today sandbox/internal/escapeprobe, whose
// int80_amd64 files are per GOARCH): everywhere else the two select the
// same files. What that leaves unchecked is a standard-library or x/sys
// API that one darwin GOARCH has and the other lacks, used by a file both
// select.
//
// It costs about a minute of CPU on a cold cache, so -short skips it.
func TestModuleBuildsForEveryTarget(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the module for darwin/arm64, darwin/amd64 and windows/amd64: a minute of CPU; run without -short")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command on PATH: %v", err)
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the module root is not two levels up: %v", err)
	}
	env := func(tg target) []string {
		return append(os.Environ(), "GOOS="+tg.goos, "GOARCH="+tg.goarch, "CGO_ENABLED=0")
	}
	goCmd := func(tg target, args ...string) (string, error) {
		cmd := exec.Command(goBin, args...)
		cmd.Dir = root
		cmd.Env = env(tg)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("GOOS=%s GOARCH=%s go %s: %v\n%s", tg.goos, tg.goarch, strings.Join(args, " "), err, strings.TrimSpace(string(out)))
		}
		return string(out), err
	}
	// The type-checker runs in a program of its own, built without this
	// binary's -race (under which go/types is about four times slower).
	typecheck := filepath.Join(t.TempDir(), "typecheck")
	build := exec.Command(goBin, "build", "-o", typecheck, "./internal/crossbuild/testdata/typecheck")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the type-checker: %v\n%s", err, out)
	}
	files := map[string]map[string]string{} // target -> package -> its files
	for _, tg := range targets {
		name := tg.goos + "/" + tg.goarch
		out, err := goCmd(tg, "list", "-test", "-f", "{{.ImportPath}}\t{{.GoFiles}}{{.CgoFiles}}{{.TestGoFiles}}{{.XTestGoFiles}}{{.EmbedFiles}}\t{{.SFiles}}", "./...")
		if err != nil {
			continue
		}
		files[name] = map[string]string{}
		asm := map[string]bool{} // packages holding assembly
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			pkg, fs, _ := strings.Cut(line, "\t")
			gofs, sfs, _ := strings.Cut(fs, "\t")
			files[name][pkg] = gofs + sfs
			if sfs != "[]" && !strings.Contains(pkg, " ") && !strings.HasSuffix(pkg, ".test") {
				asm[pkg] = true
			}
		}
		pkgs := []string{"./..."}
		if tg.like != "" {
			if files[tg.like] == nil {
				t.Errorf("%s is checked where it differs from %s, which has no file list", name, tg.like)
				continue
			}
			pkgs = differing(files[name], files[tg.like])
			t.Logf("%s: %d package(s) differ from %s: %v", name, len(pkgs), tg.like, pkgs)
			if len(pkgs) == 0 {
				continue
			}
		}
		for _, e := range typeErrors(t, typecheck, root, tg, pkgs) {
			t.Errorf("GOOS=%s GOARCH=%s: %s", tg.goos, tg.goarch, e)
		}
		var compile []string
		for _, p := range pkgs {
			for a := range asm {
				if p == "./..." || p == a {
					compile = append(compile, a)
				}
			}
		}
		if len(compile) > 0 {
			goCmd(tg, append([]string{"list", "-export", "-f", "{{if .Error}}{{.Error}}{{end}}"}, compile...)...)
		}
	}
}

// typeErrors type-checks patterns (with their tests) and everything they
// import from source for tg, with the typecheck program, and returns every
// error found: the load's, each package's list, parse and type errors.
func typeErrors(t *testing.T, typecheck, root string, tg target, patterns []string) []string {
	t.Helper()
	cmd := exec.Command(typecheck, append([]string{"-goos", tg.goos, "-goarch", tg.goarch}, patterns...)...)
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return []string{fmt.Sprintf("typecheck %v: %v", patterns, err)}
	}
	var errs []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if l != "" {
			errs = append(errs, l)
		}
	}
	return errs
}

// differing lists the packages (import paths, test variants as their
// package) whose files in got differ from those in base, or that base
// does not have.
func differing(got, base map[string]string) []string {
	seen := map[string]bool{}
	var pkgs []string
	for pkg, fs := range got {
		if base[pkg] == fs && fs != "" {
			continue
		}
		p, _, _ := strings.Cut(pkg, " ") // "p [p.test]" is p's test variant
		p = strings.TrimSuffix(p, ".test")
		p = strings.TrimSuffix(p, "_test")
		if !seen[p] {
			seen[p] = true
			pkgs = append(pkgs, p)
		}
	}
	return pkgs
}

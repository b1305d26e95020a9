package crossbuild

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// target is a platform besides Linux that Sentinel must build for. When
// like is set, the target is checked in full only where it differs from
// that one: its packages whose files (Go, test, assembly, embedded) are
// the same as like's were already vetted and compiled there.
type target struct{ goos, goarch, like string }

var targets = []target{
	{goos: "darwin", goarch: "arm64"},
	{goos: "darwin", goarch: "amd64", like: "darwin/arm64"},
	{goos: "windows", goarch: "amd64"},
}

// TestModuleBuildsAndVetsForEveryTarget runs, for each target one after
// another, `go vet`, which type-checks every package with its tests from
// source and, to do so, compiles every package another package or test
// imports (all of them but the sentinel-helper command) for that target;
// then `go list -export`, which compiles as `go build` does, on only the
// packages holding assembly, which no type-checker reads. It links
// nothing: `go build ./...` also linked the three commands for every
// target, on every run, cached or not (about 6 s of CPU a target), and a
// link can fail only on what this module does not have (cgo,
// //go:linkname, assembly calling outside its package; the one assembly
// file, sandbox/internal/escapeprobe, is in no command). `go list -export
// ./...` after vet compiled what vet had not: the commands' main packages,
// whose every line vet had already type-checked.
//
// darwin/amd64 is vetted and compiled only in the packages whose files
// differ from darwin/arm64's (today sandbox/internal/escapeprobe, whose
// int80_amd64 files are per GOARCH): everywhere else the two select the
// same files, and checking them twice cost about 75 s of CPU a run. What
// that leaves unchecked is a standard-library or x/sys API that one darwin
// GOARCH has and the other lacks, used by a file both select.
//
// It costs minutes on a cold cache (about 70 s of CPU for each full target;
// seconds when cached), so -short skips it.
func TestModuleBuildsAndVetsForEveryTarget(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-builds and vets the module for darwin/arm64, darwin/amd64 and windows/amd64: minutes; run without -short")
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
	goCmd := func(tg target, args ...string) (string, error) {
		cmd := exec.Command(goBin, args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GOOS="+tg.goos, "GOARCH="+tg.goarch, "CGO_ENABLED=0")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("GOOS=%s GOARCH=%s go %s: %v\n%s", tg.goos, tg.goarch, strings.Join(args, " "), err, strings.TrimSpace(string(out)))
		}
		return string(out), err
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
		goCmd(tg, append([]string{"vet"}, pkgs...)...)
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

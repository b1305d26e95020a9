package runner

import (
	"errors"
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A detected check whose ecosystem has nothing in the tree yet (a new Go
// module with only go.mod, a pyproject.toml with no tests, an empty Cargo
// workspace) is not run: its tool would fail for want of input (`go vet
// ./...` "matched no packages", exit 1; pytest "no tests collected", exit 5;
// cargo "no targets", exit 101) and the run would end failed for a change
// that broke nothing. It is skipped, with a reason, on the clean copy with
// the patch applied, so a coder that adds the first package is checked.
//
// What decides is read by Sentinel from the tree (file names, Go build
// constraints), never from the check's output: a coder's test could print
// "no tests collected" or exit 5 itself. A person's own checks (flag,
// config) always run as written.

// nothingToCheck says why a detected check has nothing to check in dir, or
// "" when it should run.
func nothingToCheck(dir string, c Check) string {
	if c.Source != "detected" {
		return ""
	}
	switch c.Command {
	case "go test ./...", "go vet ./...":
		if !hasGoPackage(dir) {
			return "no Go packages yet"
		}
	case "python3 -m pytest -q":
		if !hasPytestTests(dir) {
			return "no Python tests yet"
		}
	case "cargo test":
		if !treeHas(dir, func(p string) bool { return strings.HasSuffix(p, ".rs") }, "target") {
			return "no Rust code yet"
		}
	}
	return ""
}

// errFound stops a walk at the first match.
var errFound = errors.New("found")

// hasGoPackage reports whether `./...` in the module at dir matches a
// package: a directory with a Go file the build constraints keep, not
// under testdata, vendor, a directory named with . or _, or a nested module.
func hasGoPackage(dir string) bool {
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if p != dir {
			n := d.Name()
			if n == "testdata" || n == "vendor" || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir // another module: not in ./...
			}
		}
		_, err = build.ImportDir(p, 0) // reads files only; runs nothing
		var none *build.NoGoError
		if err == nil || !errors.As(err, &none) && goFileIn(p) {
			return errFound // a package, or one go itself should judge
		}
		return nil
	})
	return errors.Is(err, errFound)
}

// goFileIn reports whether dir holds a .go file go would read.
func goFileIn(dir string) bool {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		n := e.Name()
		if !e.IsDir() && strings.HasSuffix(n, ".go") && !strings.HasPrefix(n, ".") && !strings.HasPrefix(n, "_") {
			return true
		}
	}
	return false
}

// pytestFile reports whether name is one of pytest's default python_files:
// test_*.py and *_test.py.
func pytestFile(name string) bool {
	return strings.HasSuffix(name, ".py") && (strings.HasPrefix(name, "test_") || strings.HasSuffix(name, "_test.py"))
}

// hasPytestTests reports whether pytest could collect a test in dir: a
// file with a default test name, or a configuration naming its own
// (python_files), in which case pytest is left to judge.
func hasPytestTests(dir string) bool {
	for _, cfg := range []string{"pytest.ini", "pyproject.toml", "setup.cfg", "tox.ini"} {
		if b, err := os.ReadFile(filepath.Join(dir, cfg)); err == nil && strings.Contains(string(b), "python_files") {
			return true
		}
	}
	return treeHas(dir, func(p string) bool { return pytestFile(filepath.Base(p)) },
		"node_modules", "venv", "site-packages", "__pycache__")
}

// treeHas reports whether a file under dir matches, leaving out hidden
// directories and the ones named in skip.
func treeHas(dir string, match func(string) bool, skip ...string) bool {
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != dir && (strings.HasPrefix(d.Name(), ".") || slices.Contains(skip, d.Name())) {
				return filepath.SkipDir
			}
			return nil
		}
		if match(p) {
			return errFound
		}
		return nil
	})
	return errors.Is(err, errFound)
}

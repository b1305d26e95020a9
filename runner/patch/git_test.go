package patch

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/hardgit"
)

// repo is a throwaway git repository for tests.
type repo struct {
	t   *testing.T
	dir string
}

// needGit skips without git, except under CI where it must be installed.
func needGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git is not installed (CI=true: it must be)")
		}
		t.Skip("git is not installed; these tests apply patches with real git")
	}
}

func newRepo(t *testing.T) *repo {
	t.Helper()
	needGit(t)
	r := &repo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	return r
}

func (r *repo) git(args ...string) string {
	r.t.Helper()
	return r.gitIn(nil, args...)
}

// gitIn runs git hardened as Sentinel runs it (internal/hardgit), so the
// patches these tests build are applied the way a landing applies them.
func (r *repo) gitIn(stdin []byte, args ...string) string {
	r.t.Helper()
	out, err := r.tryGit(stdin, args...)
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// tryGit is git that returns its error instead of failing the test.
func (r *repo) tryGit(stdin []byte, args ...string) (string, error) {
	g := hardgit.Git{Dir: r.dir, Env: []string{"HOME=" + r.dir}}
	if stdin != nil {
		g.Stdin = bytes.NewReader(stdin)
	}
	return g.Run(context.Background(), append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "core.autocrlf=false"}, args...)...)
}

func (r *repo) write(name, body string, mode os.FileMode) {
	r.t.Helper()
	p := filepath.Join(r.dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), mode); err != nil {
		r.t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		r.t.Fatal(err)
	}
}

func (r *repo) read(name string) (string, bool) {
	b, err := os.ReadFile(filepath.Join(r.dir, name))
	return string(b), err == nil
}

func (r *repo) commitAll() {
	r.t.Helper()
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "base")
}

// clone is a clean copy of r's committed state.
func (r *repo) clone() *repo {
	r.t.Helper()
	c := &repo{t: r.t, dir: r.t.TempDir()}
	r.git("clone", "-q", r.dir, c.dir)
	return c
}

// diff is the working tree against HEAD, as the runner computes it.
func (r *repo) diff(extra ...string) []byte {
	r.t.Helper()
	r.git("add", "-A")
	args := append([]string{"diff", "--cached", "--binary", "--no-ext-diff", "--no-textconv"}, extra...)
	if len(extra) == 0 {
		args = append(args, "--no-renames")
	}
	return []byte(r.git(args...))
}

// apply checks then applies p; it fails the test when git refuses.
func (r *repo) apply(p []byte) {
	r.t.Helper()
	if out, err := r.tryGit(p, "apply", "--check", "--binary", "-"); err != nil {
		r.t.Fatalf("git apply --check refused the patch: %v\n%s\n--- patch\n%s", err, out, p)
	}
	r.gitIn(p, "apply", "--binary", "-")
}

// lines makes a file body of n numbered lines.
func lines(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = prefix + " line " + strconv.Itoa(i+1)
	}
	return out
}

func body(ls []string) string { return strings.Join(ls, "\n") + "\n" }

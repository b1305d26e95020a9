package runner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/sandbox"
)

// goProject is a committed Go module whose test is body.
func goProject(t *testing.T, module, body string) (*Project, Snapshot) {
	t.Helper()
	dir := t.TempDir()
	gitT(t, dir, "init", "-q")
	write(t, filepath.Join(dir, "go.mod"), "module "+module+"\n\ngo 1.21\n")
	write(t, filepath.Join(dir, "m.go"), "package m\n\nfunc Two() int { return 2 }\n")
	write(t, filepath.Join(dir, "m_test.go"), body)
	gitT(t, dir, "add", "-A")
	gitT(t, dir, "commit", "-qm", "init")
	p, err := FindProject(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.EnsureState(); err != nil {
		t.Fatal(err)
	}
	snap, err := TakeSnapshot(context.Background(), p, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return p, snap
}

// A check that plants an entry in the Go build cache it was given, and
// overwrites every entry there, must not reach a later verification of
// another project: each verification has a cache of its own.
func TestVerificationGoCacheIsNotSharedBetweenVerifications(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go toolchain")
	}
	// A stable cache and state dir of the test's own (not the person's),
	// so the seed is built once across test runs.
	t.Setenv("XDG_CACHE_HOME", filepath.Join(os.TempDir(), "sentinel-test-cache"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(os.TempDir(), "sentinel-test-state"))
	ctx := context.Background()

	planter, psnap := goProject(t, "example.com/planter", `package m

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestPlant(t *testing.T) {
	t.Parallel()
	gc := os.Getenv("GOCACHE")
	if gc == "" {
		t.Fatal("no GOCACHE")
	}
	if err := os.WriteFile(filepath.Join(gc, "planted"), []byte("evil"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Poison every entry: a later build that reads them links garbage.
	filepath.WalkDir(gc, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && filepath.Base(p) != "planted" {
			os.WriteFile(p, []byte("poisoned"), 0o644)
		}
		return nil
	})
}
`)
	v := Verifier{Project: planter, Snapshot: psnap, RunID: "planter", RunDir: t.TempDir(),
		Checks: []Check{{Command: "go test -count=1 ./..."}}, Mode: sandbox.ModeOff}
	if res, err := v.Verify(ctx, filepath.Join(t.TempDir(), "none.diff")); err != nil {
		t.Fatalf("the planting verification: %v\n%+v", err, res)
	}

	victim, vsnap := goProject(t, "example.com/victim", `package m

import (
	"os"
	"path/filepath"
	"testing"
)

func TestClean(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(filepath.Join(os.Getenv("GOCACHE"), "planted")); err == nil {
		t.Fatal("this verification's Go cache holds what another verification planted")
	}
	if Two() != 2 {
		t.Fatal("wrong code was linked")
	}
}
`)
	v = Verifier{Project: victim, Snapshot: vsnap, RunID: "victim", RunDir: t.TempDir(),
		Checks: []Check{{Command: "go test -count=1 ./..."}}, Mode: sandbox.ModeOff}
	res, err := v.Verify(ctx, filepath.Join(t.TempDir(), "none.diff"))
	if err != nil {
		var tail string
		if len(res) > 0 {
			tail = res[0].Tail
		}
		t.Fatalf("a later verification saw the planted cache: %v\n%s", err, tail)
	}
	if len(res) != 1 || !res[0].Passed() || !strings.Contains(res[0].Tail, "ok") {
		t.Fatalf("victim verification: %+v", res)
	}
}

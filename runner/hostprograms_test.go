//go:build unix

package runner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/hostbin"
	"github.com/sentinelhq/sentinel/sandbox"
)

// plantGo writes a `go` into dir that leaves marker when it runs.
func plantGo(t *testing.T, dir, marker string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	body := "#!/bin/sh\ntouch " + marker + "\necho 'go version planted'\n"
	if err := os.WriteFile(filepath.Join(dir, "go"), []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
}

// The verification seed's `go version` and `go test` run on the host with
// the person's environment. The go they run is the person's own, fixed
// before the coder started: not a `go` earlier on PATH in the project (a
// direnv bin, node_modules/.bin, a relative entry) nor one in a root the
// coder may write, and not one planted there afterwards.
func TestVerificationSeedRunsThePersonsGo(t *testing.T) {
	realGo, err := exec.LookPath("go")
	if err != nil {
		t.Fatal("go is not installed:", err)
	}
	tmp, _ := filepath.EvalSymlinks(t.TempDir())
	project, writable := filepath.Join(tmp, "project"), filepath.Join(tmp, "agent-state")
	marker := filepath.Join(tmp, "planted-go-ran")
	plantGo(t, filepath.Join(project, "bin"), marker)
	plantGo(t, project, marker)
	plantGo(t, filepath.Join(writable, "bin"), marker)
	later := filepath.Join(tmp, "later")
	if err := os.MkdirAll(later, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(project)
	path := strings.Join([]string{".", filepath.Join(project, "bin"), filepath.Join(writable, "bin"), later, filepath.Dir(realGo), "/usr/bin", "/bin"}, ":")
	defer hostbin.SetPersonPATHForTest(path)()
	t.Setenv("PATH", path)
	t.Setenv("XDG_STATE_HOME", t.TempDir())

	pinPersonPrograms(project, sandbox.Profile{Workspace: project, Writable: []string{writable}})
	plantGo(t, later, marker) // after the start: the pin holds

	var version string
	was := buildSeedFn
	buildSeedFn = func(_ context.Context, dir, v string, _ seedTier, _ *goSeedDir) error {
		version = v
		return os.WriteFile(filepath.Join(dir, "x"), nil, 0o600)
	}
	t.Cleanup(func() { buildSeedFn = was })
	_, _ = goSeed(context.Background(), t.TempDir())
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a planted go ran on the host")
	}
	if !strings.HasPrefix(version, "go version go") {
		t.Errorf("the seed was built for %q, not the person's go", version)
	}
	if got, _ := hostbin.Person("go"); !strings.HasPrefix(got, filepath.Dir(realGo)) {
		t.Errorf("the pinned go is %s, want the one in %s", got, filepath.Dir(realGo))
	}
}

package inplace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// hostFakes are programs Sentinel itself might start on the host before
// the sandbox exists (git, bwrap, go, a shell, `true`…).
var hostFakes = []string{"git", "bwrap", "go", "true", "cat", "sh", "busybox", "node", "env"}

// plantHostFakes puts a copy of each hostFakes program in the project's
// node_modules/.bin and in a directory of the person's, both first on the
// returned PATH; any of them that runs leaves a line in the marker file,
// which lies under /tmp (inside the sandbox a private /tmp hides it).
func plantHostFakes(t *testing.T, project string) (path, marker string) {
	t.Helper()
	marker = filepath.Join(t.TempDir(), "ran-on-host")
	bins := []string{filepath.Join(project, "node_modules", ".bin"), filepath.Join(t.TempDir(), "bin")}
	for _, b := range bins {
		for _, n := range hostFakes {
			p := filepath.Join(b, n)
			e2etest.WriteFile(t, p, "#!/bin/sh\necho \""+p+" $*\" >> '"+marker+"'\nexit 0\n")
			if err := os.Chmod(p, 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	return strings.Join(bins, ":") + ":" + os.Getenv("PATH"), marker
}

// `sentinel exec` in a repository whose node_modules/.bin, and another
// directory of the person's, come first on PATH with their own git, bwrap,
// go, sh…: none of them runs on the host — Sentinel's own git, the
// sandbox's bwrap and the toolchain view take the system's or read files
// (31.3) — and the run still works.
func TestExecRunsNoPATHProgramOnTheHost(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	path, marker := plantHostFakes(t, dir)
	res := e2etest.Sentinel(t, dir, []string{"HOME=" + t.TempDir(), "PATH=" + path}, "exec", "--plain", "--", "/bin/sh", "-c", "echo hi > from-coder")
	if res.Code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout:\n%s", res.Code, res.Stderr, res.Stdout)
	}
	if b, err := os.ReadFile(marker); err == nil {
		t.Errorf("programs found first on PATH ran on the host:\n%s", b)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "from-coder")); err != nil || string(b) != "hi\n" {
		t.Errorf("the coder's command did not run in the sandbox: %q %v", b, err)
	}
	if !strings.Contains(res.Stdout+res.Stderr, "from-coder") {
		t.Errorf("the change report does not name the coder's file:\n%s\n%s", res.Stdout, res.Stderr)
	}
}

// The same through a shim: a `claude` of the project's found first on
// PATH, among fakes of everything Sentinel could start itself.
func TestShimRunsNoPATHProgramOnTheHost(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	path, marker := plantHostFakes(t, dir)
	agent := filepath.Join(dir, "node_modules", ".bin", "claude")
	e2etest.WriteFile(t, agent, "#!/bin/sh\necho ran > ran-inside\n")
	if err := os.Chmod(agent, 0o755); err != nil {
		t.Fatal(err)
	}
	res := e2etest.Sentinel(t, dir, []string{"HOME=" + t.TempDir(), "PATH=" + filepath.Dir(agent) + ":" + path}, "shim", "--dir", t.TempDir(), "claude")
	if b, err := os.ReadFile(marker); err == nil {
		t.Errorf("programs found first on PATH ran on the host:\n%s", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "ran-inside")); err != nil {
		t.Errorf("the shim did not run the project's claude in the sandbox (exit %d): %v\n%s", res.Code, err, res.Stderr)
	}
}

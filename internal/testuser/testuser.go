// Package testuser re-runs a test as another (unprivileged) user: root
// reads and lists everything, so a mode that hides a file or a directory
// from its owner can only be tried as someone else.
package testuser

import (
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
)

// CI is the unprivileged user the tests use (CI creates it).
const CI = "sentinel-ci"

// Rerun, when the test process is root, runs the calling test again as
// user name (a copy of the test binary in a directory it can read, with a
// minimal environment whose HOME is that directory) and fails the test
// with its output unless it passed; it says whether it did, and the
// caller then returns. Not root: it does nothing and says false.
func Rerun(t testing.TB, name string) bool {
	t.Helper()
	if os.Getuid() != 0 {
		return false
	}
	u, err := user.Lookup(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("user %s is missing (CI=true): useradd -m %s", name, name)
		}
		t.Skipf("running as root and user %s does not exist: create it (useradd -m %s)", name, name)
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Fatal("setpriv is missing (util-linux)")
	}
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, filepath.Base(exe))
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(setpriv, "--reuid="+u.Uid, "--regid="+u.Gid, "--init-groups", bin, "-test.run", "^"+t.Name()+"$", "-test.v")
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "USER=" + name, "TMPDIR=/tmp"}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: "+t.Name()+" ") {
		t.Fatalf("%s as %s failed: %v\n%s", t.Name(), name, err, out)
	}
	return true
}

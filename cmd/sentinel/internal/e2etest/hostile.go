package e2etest

import (
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// RerunUnprivileged re-runs the named tests of the calling package as the
// unprivileged CI user (sentinel-ci) when the suite runs as root, with
// sentinelBin as the binary under test; every one must pass (or skip) as
// that user too.
func RerunUnprivileged(t *testing.T, sentinelBin string, tests []string) {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("already unprivileged: the hostile tests ran as this user")
	}
	if os.Getenv("SENTINEL_TEST_BIN") != "" {
		t.Skip("already the re-run")
	}
	const name = "sentinel-ci"
	u, err := user.Lookup(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("user %s is missing (CI=true): useradd -m %s", name, name)
		}
		t.Skipf("user %s does not exist: create it (useradd -m %s) to run the hostile suite unprivileged", name, name)
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Fatal("setpriv is missing (util-linux)")
	}
	dir, err := os.MkdirTemp("", "sentinel-hostile-bins-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	exe, _ := os.Executable()
	testBin, bin := filepath.Join(dir, "sentinel.test"), filepath.Join(dir, "sentinel")
	for src, dst := range map[string]string{exe: testBin, sentinelBin: bin} {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	run := "^(" + strings.Join(tests, "|") + ")$"
	cmd := exec.Command(setpriv, "--reuid="+u.Uid, "--regid="+u.Gid, "--init-groups",
		testBin, "-test.run", run, "-test.v", "-test.timeout", "25m")
	wd, _ := os.Getwd()
	cmd.Dir = wd // testdata is read relative to the package
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + u.HomeDir, "USER=" + name,
		"SENTINEL_TEST_BIN=" + bin, "CI=" + os.Getenv("CI"), "TMPDIR=/tmp", "LANG=C.UTF-8"}
	out, err := cmd.CombinedOutput()
	t.Logf("as %s:\n%s", name, out) // a SKIP passes too: -v shows which
	for _, name := range tests {
		if !regexp.MustCompile(`--- (PASS|SKIP): ` + name + ` `).Match(out) {
			t.Errorf("%s did not pass as %s", name, u.Username)
		}
	}
	if err != nil || t.Failed() {
		t.Fatalf("hostile suite as %s: %v\n%s", name, err, out)
	}
}

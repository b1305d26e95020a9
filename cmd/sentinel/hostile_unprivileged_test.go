package main

import (
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// hostileTests are the hostile-coder tests that also run as the
// unprivileged CI user: a coder that plants Sentinel's state, forges broker
// traffic, writes run-later files, links out of the project or sends
// garbage through the gates must fail the same way for both kinds of caller.
var hostileTests = []string{
	"TestAHostileCoderRunsNothingAndLandsNoState",
	"TestAChangeOverTheSizeLimitIsRefusedAndLeavesGitAlone",
	"TestPlantedRunRecordsAreNeverActedOn",
	"TestCrashSweepUsesOnlyItsOwnShadowGitDir",
	"TestWorktreeApplyNeverWritesThroughASymlink",
	"TestForgedReportsAndHostileTextNeverReachTheTerminalRaw",
	"TestPlantedProjectConfigNeedsTrust",
	"TestFinalReportFlagsEveryFileThatRunsCodeLater",
	"TestSandboxRunAgentCannotTouchTheRealStartupFiles",
	"TestSandboxRunUsesTheProjectConfig",
	"TestModelGatesThatCannotAnswerHoldTheRun",
	"TestExecInPlaceNestedRepoWorktreeAndObjects",
	"TestExecInPlaceFolderOfRepositories",
	"TestExecInPlaceInsideALinkedWorktree",
}

// TestHostileSuiteUnprivileged re-runs hostileTests as the unprivileged CI
// user when the suite runs as root (as the sandbox's escape suite does).
func TestHostileSuiteUnprivileged(t *testing.T) {
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
	run := "^(" + strings.Join(hostileTests, "|") + ")$"
	cmd := exec.Command(setpriv, "--reuid="+u.Uid, "--regid="+u.Gid, "--init-groups",
		testBin, "-test.run", run, "-test.v", "-test.timeout", "15m")
	wd, _ := os.Getwd()
	cmd.Dir = wd // testdata is read relative to the package
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + u.HomeDir, "USER=" + name,
		"SENTINEL_TEST_BIN=" + bin, "CI=" + os.Getenv("CI"), "TMPDIR=/tmp", "LANG=C.UTF-8"}
	out, err := cmd.CombinedOutput()
	for _, name := range hostileTests {
		if !regexp.MustCompile(`--- (PASS|SKIP): ` + name + ` `).Match(out) {
			t.Errorf("%s did not pass as %s", name, u.Username)
		}
	}
	if err != nil || t.Failed() {
		t.Fatalf("hostile suite as %s: %v\n%s", name, err, out)
	}
}

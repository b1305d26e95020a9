package testbin

import (
	"os"
	"os/exec"
	"testing"
)

// Tmpfs mounts a tmpfs of size (e.g. "64k") on dir for the test, unmounted
// when it ends: a real filesystem that fills up. It needs root: other users
// skip; a root that cannot mount skips too, except under CI=true, where the
// full-disk tests must run.
func Tmpfs(t testing.TB, dir, size string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a small tmpfs needs root")
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("cannot mount a tmpfs on %s (CI=true): %v %s", dir, err, out)
		}
		t.Skipf("cannot mount a tmpfs here: %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", dir).Run() }) // lazy: a test's leftover process may hold it
}

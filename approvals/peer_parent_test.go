package approvals

import (
	"os"
	"os/exec"
	"testing"
)

// The macOS and Windows way of reading a parent (gopsutil) and Linux's
// own /proc parser agree, so the broker's peer check means the same on
// every platform; and a process that is gone is an error, never pid 0.
func TestParentReadersAgree(t *testing.T) {
	child := exec.Command("sleep", "60")
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { child.Process.Kill(); child.Wait() })
	for _, pid := range []int{os.Getpid(), child.Process.Pid} {
		a, errA := parentPID(pid)
		b, errB := parentByProcess(pid)
		if errA != nil || errB != nil || a != b || a <= 0 {
			t.Fatalf("pid %d: /proc says %d (%v), kernel query says %d (%v)", pid, a, errA, b, errB)
		}
	}
	if got, _ := parentByProcess(child.Process.Pid); got != os.Getpid() {
		t.Fatalf("the child's parent is %d, want this test %d", got, os.Getpid())
	}
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	if pp, err := parentByProcess(gone.Process.Pid); err == nil {
		t.Fatalf("a finished process has parent %d and no error", pp)
	}
}

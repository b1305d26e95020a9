package procgroup

import (
	"os/exec"
	"runtime"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/poll"
)

// Kill ends the child's whole group: a grandchild it started dies too.
func TestKillEndsTheGroup(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows: Kill ends the process only (see the package doc)")
	}
	cmd := exec.Command("/bin/sh", "-c", "sleep 300 & echo $!; wait")
	Own(cmd)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var buf [32]byte
	n, _ := out.Read(buf[:])
	var grandchild int
	for _, c := range buf[:n] {
		if c >= '0' && c <= '9' {
			grandchild = grandchild*10 + int(c-'0')
		}
	}
	if !Alive(grandchild) {
		t.Fatalf("the grandchild %d is not running", grandchild)
	}
	if err := Kill(cmd.Process.Pid); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if !poll.Until(time.Minute, func() bool { return !Alive(grandchild) }) { // a hang bound
		t.Fatalf("the grandchild %d outlived Kill of its group", grandchild)
	}
}
